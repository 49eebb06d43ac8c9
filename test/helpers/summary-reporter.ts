import type { Reporter, TestModule } from 'vitest/node';

/** Files named in the closing lines, slowest first: where a run's time went (docs/benchmarks.md). */
const SLOWEST = 12;

/**
 * Prints the slowest files (their tests' and hooks' time, import included) and the plain closing
 * line `N passed, N failed, N skipped` that CI reads.
 */
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
    const timed = modules
      .map((m) => {
        const d = m.diagnostic();
        return {
          name: `${m.project.name} ${m.moduleId.replace(`${process.cwd()}/`, '')}`,
          ms: d.duration + d.collectDuration,
        };
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST);
    console.log('\nThe slowest files (tests, hooks and import):');
    for (const f of timed) console.log(`  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.name}`);
    const pg = process.env.TEST_DATABASE_URL ? 'SQLite and PostgreSQL' : 'SQLite only (PostgreSQL skipped)';
    console.log(`\nDatabases: ${pg}`);
    console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
