import type { Config } from '../../config/config.ts';
import { type CommandArgs, UsageError } from '../args.ts';
import { withDb } from '../database.ts';
import { fillDemo } from '../demo.ts';

export async function run({ positionals }: CommandArgs, config: Config): Promise<void> {
  if (positionals.length) throw new UsageError('demo takes no arguments');
  const made = await withDb(config, (_db, database) => fillDemo(database, new Date()));
  console.log(`Demo data added: ${made.streamers} streamers, ${made.comments} comments, 1 team, 3 users.`);
}
