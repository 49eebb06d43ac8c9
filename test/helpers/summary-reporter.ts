import type { Reporter, TestModule } from 'vitest/node';

/** Prints the plain closing line `N passed, N failed, N skipped` that CI reads. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const pg = process.env.TEST_DATABASE_URL ? 'SQLite and PostgreSQL' : 'SQLite only (PostgreSQL skipped)';
    console.log(`\nDatabases: ${pg}`);
    console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
