/**
 * What every command (src/cli/commands/*.ts) takes from the dispatcher: its arguments, the
 * error that prints its help, and the shape of its module. The table of commands
 * (command.ts) imports the commands; the commands import only this.
 */
import type { Config } from '../config/config.ts';

/** A command-line usage error: printed with the command's help, exit code 2. */
export class UsageError extends Error {}

/** A command's arguments after `parseArgs`: its declared options and the rest, in order. */
export interface CommandArgs {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/** The module of one command (src/cli/commands/*.ts), imported only when it runs. */
export interface CommandModule {
  run: (args: CommandArgs, config: Config) => Promise<void>;
}
