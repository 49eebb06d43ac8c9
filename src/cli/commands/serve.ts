import type { Config } from '../../config/config.ts';
import { startServer } from '../../server.ts';
import { type CommandArgs, none } from '../args.ts';

export async function run({ positionals }: CommandArgs, config: Config): Promise<void> {
  none(positionals, 'serve');
  await startServer(config);
}
