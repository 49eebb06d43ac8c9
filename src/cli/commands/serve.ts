import type { Config } from '../../config/config.ts';
import { startServer } from '../../server.ts';
import { type CommandArgs, UsageError } from '../args.ts';

export async function run({ positionals }: CommandArgs, config: Config): Promise<void> {
  if (positionals.length) throw new UsageError('serve takes no arguments');
  await startServer(config);
}
