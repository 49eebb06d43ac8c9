/**
 * What every command (src/cli/commands/*.ts) takes from the dispatcher: its arguments, the
 * error that prints its help, and the shape of its module. The table of commands
 * (command.ts) imports the commands; the commands import only this.
 */
import type { Config } from '../config/config.ts';

/** A command-line usage error: printed with the command's help, exit code 2. */
export class UsageError extends Error {}

/**
 * The arguments of a command that takes exactly `names` (`'file to write'`), said once for
 * every command: too few are `give the file to write` (all of them named), too many
 * `give one file to write, not 2`.
 */
export function exactly<const N extends readonly string[]>(
  positionals: string[],
  ...names: N
): { [K in keyof N]: string } {
  if (positionals.length < names.length) throw new UsageError(`give the ${names.join(' and the ')}`);
  if (positionals.length > names.length) {
    throw new UsageError(`give one ${names.join(' and one ')}, not ${positionals.length}`);
  }
  return positionals as unknown as { [K in keyof N]: string };
}

/** A command that takes no arguments was given some (`why`: what it does instead). */
export function none(positionals: string[], command: string, why = ''): void {
  if (positionals.length > 0) throw new UsageError(`${command} takes no arguments${why}`);
}

/** A command's arguments after `parseArgs`: its declared options and the rest, in order. */
export interface CommandArgs {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/**
 * Where the tool writes and what it reads: the process's own (dispatch.ts), or a test's that
 * runs it in-process (test/helpers/cli.ts). `line` is a command's report, a line of its output.
 */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  line: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

/** The module of one command (src/cli/commands/*.ts), imported only when it runs. */
export interface CommandModule {
  run: (args: CommandArgs, config: Config, io: Io) => Promise<void>;
}
