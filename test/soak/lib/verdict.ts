import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DbKind } from './database.ts';

/** A scenario's result: one line, `VERDICT <name>: PASS (...)` or `VERDICT <name>: FAIL (...)`. */
export interface Verdict {
  name: string;
  pass: boolean;
  detail: string;
}

export const formatVerdict = (v: Verdict) => `VERDICT ${v.name}: ${v.pass ? 'PASS' : 'FAIL'} (${v.detail})`;

/** 4812 → "4,812" */
export const n = (value: number) => Math.round(value).toLocaleString('en-US');

/** Collects what went wrong; the verdict passes when nothing did. */
export class Findings {
  readonly failures: string[] = [];

  /** Records a failure when the condition does not hold. */
  check(ok: boolean, failure: string | (() => string)): boolean {
    if (!ok) this.failures.push(typeof failure === 'string' ? failure : failure());
    return ok;
  }

  fail(failure: string) {
    this.failures.push(failure);
  }

  /** A scenario that threw: its error, with how each service it started ended. */
  crashed(err: unknown, services: { name: string; describeExit(): string }[]) {
    const exits = services.map((s) => ` (${s.name}: ${s.describeExit()})`).join('');
    this.fail(`${err instanceof Error ? err.message : String(err)}${exits}`);
  }

  verdict(name: string, passDetail: string): Verdict {
    const pass = this.failures.length === 0;
    return { name, pass, detail: pass ? passDetail : `${this.failures.join('; ')}; ${passDetail}` };
  }
}

/** A list shortened for a verdict line: the first few items and how many more. */
export function some(items: string[], max = 5): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown}, and ${items.length - max} more` : shown;
}

/** Whether a module is the script being run (not imported by a test). */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** The `--db sqlite|postgres` argument of a scenario script. */
export function dbArgument(fallback: DbKind = 'sqlite'): DbKind {
  const i = process.argv.indexOf('--db');
  const value = i === -1 ? fallback : process.argv[i + 1];
  if (value !== 'sqlite' && value !== 'postgres') throw new Error('--db must be sqlite or postgres');
  return value;
}

/**
 * Runs a scenario as a script: prints its one verdict line and exits non-zero on FAIL. An
 * error that escapes the scenario is a FAIL too.
 */
export async function runScript(name: string, scenario: () => Promise<Verdict>): Promise<never> {
  let verdict: Verdict;
  try {
    verdict = await scenario();
  } catch (err) {
    verdict = {
      name,
      pass: false,
      detail: `the scenario stopped: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
  console.log(formatVerdict(verdict));
  process.exit(verdict.pass ? 0 : 1);
}
