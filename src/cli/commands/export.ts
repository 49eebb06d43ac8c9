import { writeFileSync } from 'node:fs';
import type { Config } from '../../config/config.ts';
import { type CommandArgs, UsageError } from '../args.ts';
import { exportData } from '../data.ts';
import { withDb } from '../database.ts';

export async function run({ positionals }: CommandArgs, config: Config): Promise<void> {
  const [file] = positionals;
  if (positionals.length !== 1 || file === undefined) throw new UsageError('give the file to write');
  const data = await withDb(config, (db) => exportData(db));
  const text = JSON.stringify(data, null, 1);
  if (file === '-') {
    process.stdout.write(text + '\n');
    return;
  }
  writeFileSync(file, text);
  const counts = Object.entries(data.tables)
    .map(([k, v]) => `${k} ${v.length}`)
    .join(', ');
  console.log(`Exported to ${file}: ${counts}`);
}
