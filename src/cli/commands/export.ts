import { writeFile } from 'node:fs/promises';
import { writeWhole } from '../../backup/files.ts';
import type { Config } from '../../config/config.ts';
import { type CommandArgs, exactly, type Io } from '../args.ts';
import { exportData } from '../data.ts';
import { withDb } from '../database.ts';

export async function run({ positionals }: CommandArgs, config: Config, io: Io): Promise<void> {
  const [file] = exactly(positionals, 'file to write');
  const data = await withDb(config, (db) => exportData(db), { existing: true });
  const text = JSON.stringify(data, null, 1);
  if (file === '-') return toStdout(text + '\n');
  // It holds what a backup holds (users, guest tags, notifications): the service user's alone,
  // and like a backup whole or not at all, so that a failed export keeps the one before it.
  await writeWhole(file, (partial) => writeFile(partial, text));
  const counts = Object.entries(data.tables)
    .map(([k, v]) => `${k} ${v.length}`)
    .join(', ');
  io.line(`Exported to ${file}: ${counts}`);
}

/**
 * The export written to the standard output. A reader that stops early (`| head`) closes the
 * pipe: that ends the export quietly, as it ends `cat`, not with an EPIPE stack trace.
 */
function toStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' ? resolve() : reject(err),
    );
    process.stdout.write(text, (err) => {
      if (!err) resolve();
    });
  });
}
