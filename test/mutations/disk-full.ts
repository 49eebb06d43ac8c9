import type { Mutation } from './list.ts';

/** Issue 45 items 19 and 22: a full disk is a 503 the proxy and the operator hear of. */
export const DISK_FULL_MUTATIONS: Mutation[] = [
  {
    name: 'disk full: a write refused for a full disk answers 500',
    file: 'src/db/failures.ts',
    from: "isDiskFull(err) ? 'disk_full' : isUnavailable(err)",
    to: 'isUnavailable(err)',
    tests: ['test/disk-full.test.ts'],
  },
  {
    name: 'disk full: /healthz stays 200 while writes fail',
    file: 'src/health/routes.ts',
    from: '  const cannotWrite = () => app.database.failures.cannotWrite(() => app.clock.now().getTime());',
    to: '  const cannotWrite = () => false;',
    tests: ['test/disk-full.test.ts'],
  },
  {
    name: 'disk full: a committed write does not clear it (/healthz 503 for a minute after room came back)',
    file: 'src/db/transaction.ts',
    from: '  ctx.changes.moved(changes);\n  ctx.failures.wrote();\n  return result;\n}\n\n/** A write of a batch',
    to: '  ctx.changes.moved(changes);\n  return result;\n}\n\n/** A write of a batch',
    tests: ['test/disk-full.test.ts'],
  },
  {
    name: 'disk full, or a database that does not answer (stop 93): said in the log at every refused request',
    file: 'src/db/failures.ts',
    from: '    if (nowMs - this.#loggedAt[kind] < FAILURE_LOG_MS) return null;\n',
    to: '',
    tests: ['test/disk-full.test.ts'],
  },
  {
    name: 'disk full: not counted',
    file: 'src/db/failures.ts',
    from: '    this.counts[kind]++;\n',
    to: '',
    tests: ['test/disk-full.test.ts'],
  },
  {
    name: 'metrics: the open event streams not reported',
    file: 'src/events/routes.ts',
    from: '  app.metrics?.watchStreams(() => streams.size);\n',
    to: '',
    tests: ['test/metrics.test.ts'],
  },
  {
    name: "metrics: a deliverer's queue reported empty",
    file: 'src/metrics/collector.ts',
    from: 'this.set({ deliverer: name }, d.last);',
    to: 'this.set({ deliverer: name }, 0);',
    tests: ['test/metrics.test.ts'],
  },
  {
    name: 'database conflicts: a deadlock answers 500',
    file: 'src/db/failures.ts',
    from: " : isConflict(err) ? 'conflict' : null;",
    to: ' : null;',
    tests: ['test/database-conflicts.test.ts'],
    project: 'postgres',
  },
  {
    name: 'database conflicts: a serialization failure is not one',
    file: 'src/db/dialect.ts',
    from: "return code === '40P01' || code === '40001';",
    to: "return code === '40P01';",
    tests: ['test/database-conflicts.test.ts'],
  },
];
