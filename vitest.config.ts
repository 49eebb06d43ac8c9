import { defineConfig } from 'vitest/config';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
if (!postgres) {
  console.log(
    '\n*** PostgreSQL run SKIPPED: TEST_DATABASE_URL is not set; the suite runs on SQLite only. ***\n',
  );
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every answer the tests' client receives is held against the API document.
    setupFiles: ['test/helpers/contract-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', env: { TEST_DB: 'sqlite' } } },
      ...(postgres
        ? [{ extends: true as const, test: { name: 'postgres', env: { TEST_DB: 'postgres' } } }]
        : []),
    ],
  },
});
