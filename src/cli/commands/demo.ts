import type { Config } from '../../config/config.ts';
import { type CommandArgs, none, type Io } from '../args.ts';
import { withDb } from '../database.ts';
import { fillDemo } from '../demo.ts';

export async function run({ positionals }: CommandArgs, config: Config, io: Io): Promise<void> {
  none(positionals, 'demo');
  const made = await withDb(config, (_db, database) => fillDemo(database, new Date()));
  io.line(`Demo data added: ${made.streamers} streamers, ${made.comments} comments, 1 team, 3 users.`);
}
