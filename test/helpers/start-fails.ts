/**
 * A start that must stop at its database step (a migration that fails, a database a newer
 * version wrote: test/database.test.ts, test/migration-newer.test.ts): the service run once on
 * `database` as an operator starts it (the build when it is current, helpers/service.ts
 * `MAIN`), in a clean environment; its exit code and its log lines, every one of them JSON.
 */
import { spawnSync } from 'node:child_process';
import { freePort } from './app.ts';
import type { TestDatabase } from './database.ts';
import { MAIN, ROOT } from './service.ts';

export interface LogLine {
  level: number;
  msg: string;
}

export async function failedStart(
  database: TestDatabase,
): Promise<{ status: number | null; lines: LogLine[] }> {
  const run = spawnSync(process.execPath, MAIN, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATABASE_URL: database.url,
      BASE_URL: 'http://localhost:1',
      PORT: String(await freePort()),
      ADMIN_PASSWORD: 'a failed-start test password',
    },
    encoding: 'utf8',
    timeout: 30_000,
  });
  const lines = run.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LogLine);
  return { status: run.status, lines };
}
