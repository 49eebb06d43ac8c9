import { readFileSync } from 'node:fs';
import type { Config } from '../../config/config.ts';
import { type CommandArgs, exactly, type Io } from '../args.ts';
import { importData, parseExport } from '../data.ts';
import { withDb } from '../database.ts';

export async function run({ positionals, values }: CommandArgs, config: Config, io: Io): Promise<void> {
  const [file] = exactly(positionals, 'file to read');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`cannot read ${file}`);
  }
  const data = parseExport(text);
  const counts = await withDb(config, (_db, database) => importData(database, data, values.force === true));
  io.line(
    `Imported: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}
