/**
 * What runs after the current test file's tests (test/helpers/file-setup.ts registers it in
 * every file). A helper module is loaded once per worker and shared by the files that worker
 * runs (vitest.config.ts `isolate: false`), so a hook it registered when loaded would belong
 * to the first of them only.
 */
const pending: (() => Promise<void>)[] = [];

/** Runs `fn` after the current file's tests, in the reverse order of registration. */
export function atFileEnd(fn: () => Promise<void>): void {
  pending.push(fn);
}

export async function runFileEnd(): Promise<void> {
  for (const fn of pending.splice(0).reverse()) await fn();
}
