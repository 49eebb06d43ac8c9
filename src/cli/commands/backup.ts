import { writeBackup } from '../../backup/files.ts';
import type { Config } from '../../config/config.ts';
import { type CommandArgs, exactly, type Io } from '../args.ts';
import { withDb } from '../database.ts';

export async function run({ positionals, values }: CommandArgs, config: Config, io: Io): Promise<void> {
  const [file] = exactly(positionals, 'file to write');
  await withDb(
    config,
    async (_db, { sqlite }) => {
      // SQLite's online backup: a consistent copy while the service keeps writing.
      if (!sqlite)
        throw new Error('backup copies SQLite databases; for PostgreSQL use pg_dump (see docs/deploy.md)');
      await writeBackup(sqlite, file, values.force === true);
    },
    { existing: true },
  );
  io.line(`Backed up to ${file}`);
}
