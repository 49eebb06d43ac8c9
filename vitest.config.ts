import { defineConfig } from 'vitest/config';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
if (!postgres) {
  console.log(
    '\n*** PostgreSQL run SKIPPED: TEST_DATABASE_URL is not set; the suite runs on SQLite only. ***\n',
  );
}

const ALL = ['test/**/*.test.ts'];
const BROWSER = ['test/browser/**/*.test.ts'];

export default defineConfig({
  test: {
    // A test's time limit is for a hang, not for a slow machine (issue 45): a clean clone on a
    // machine loaded by other work failed 10 tests on a 30-second limit, each of them working.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // expect.poll waits for something that happens over a socket or in a page, never for time;
    // it gave up after 1 s by default, and a browser write, its retried answer and the render
    // once took longer with two other files beside Chromium (stop 37's CI run).
    expect: { poll: { timeout: 30_000 } },
    // Vitest's default on 2 cores is one file at a time (cores - 1); the files wait on
    // sockets, PostgreSQL and child processes much of the time, so more run side by side
    // (docs/benchmarks.md "The suite's time"). TEST_WORKERS overrides.
    maxWorkers: Number(process.env.TEST_WORKERS) || 3,
    // A worker keeps the modules it loaded from one file to the next (of its project: the two
    // databases never share one). Loading Fastify, Kysely and the app anew for every file was
    // a third of the suite's time. No test mocks modules or stubs globals; every app a file
    // starts is closed after it.
    isolate: false,
    // The migrated SQLite file every app's database starts as (test/helpers/database.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
    // Every answer the tests' client receives is held against the API document.
    // Each file's own cleanups run after it (test/helpers/file-end.ts).
    setupFiles: ['test/helpers/contract-setup.ts', 'test/helpers/file-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ALL, exclude: BROWSER, env: { TEST_DB: 'sqlite' } } },
      // The browser walks, on SQLite only (test/browser/browser.ts). Chromium shares the cores
      // with the files beside it, so a walk gets more time before it counts as hung.
      {
        extends: true,
        test: {
          name: 'browser',
          include: BROWSER,
          testTimeout: 240_000,
          env: { TEST_DB: 'sqlite' },
        },
      },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: { name: 'postgres', include: ALL, exclude: BROWSER, env: { TEST_DB: 'postgres' } },
            },
          ]
        : []),
    ],
  },
});
