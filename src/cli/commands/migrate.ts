import type { Config } from '../../config/config.ts';
import { openDatabase } from '../../db/connect.ts';
import { migrateToLatest } from '../../db/migrator.ts';
import { type CommandArgs, none, type Io } from '../args.ts';

export async function run({ positionals }: CommandArgs, config: Config, io: Io): Promise<void> {
  none(positionals, 'migrate');
  const { db } = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(db);
    io.line(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await db.destroy();
  }
}
