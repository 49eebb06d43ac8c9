import { statSync } from 'node:fs';
import { restoreSqlite } from '../../backup/restore.ts';
import type { Config } from '../../config/config.ts';
import { type CommandArgs, exactly, UsageError, type Io } from '../args.ts';

export async function run({ positionals }: CommandArgs, config: Config, io: Io): Promise<void> {
  const [file] = exactly(positionals, 'backup file to restore');
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(
      `${file} is a directory: give one backup file in it (its newest is the last by name)`,
    );
  }
  const url = config.databaseUrl;
  if (!url.startsWith('sqlite:') || url === 'sqlite::memory:') {
    throw new Error(
      'restore replaces a SQLite database file; on PostgreSQL restore a pg_dump with pg_restore (see docs/deploy.md "Backups and restores")',
    );
  }
  const target = url.slice('sqlite:'.length);
  const { aside, migration, comments } = await restoreSqlite(target, file, new Date());
  io.line(
    [
      `Restored ${target} from ${file} (${comments} comments; migrations up to ${migration}, later ones run at start).`,
      aside ? `The database it replaced is kept as ${aside}.` : 'There was no database to replace.',
    ].join('\n'),
  );
}
