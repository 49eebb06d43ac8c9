import type { Mutation } from './list.ts';

/** The test tools themselves: the mutation runner, and the drawing process the tests start. */
const TESTS = ['test/mutations-runner.test.ts'];
const REUSE = ['test/schema-reuse.test.ts'];

export const TOOLING_MUTATIONS: Mutation[] = [
  {
    name: "mutation runner: a signal restores the file but leaves the tests' processes running",
    file: 'test/mutations/run.ts',
    from: '    const stopped = stopGroup();\n    restore();\n    void stopped.then(() => process.exit(code));\n',
    to: '    restore();\n    process.exit(code);\n',
    tests: TESTS,
    project: 'sqlite',
  },
  {
    name: "mutation runner: a command runs in the runner's process group (its group cannot be stopped)",
    file: 'test/mutations/run.ts',
    from: "{ detached: true, stdio: 'ignore' }",
    to: "{ stdio: 'ignore' }",
    tests: TESTS,
    project: 'sqlite',
  },
  {
    name: "mutation runner: no SIGTERM handler (a supervisor's stop leaves the file mutated)",
    file: 'test/mutations/run.ts',
    from: "  ['SIGTERM', 143],\n",
    to: '',
    tests: TESTS,
    project: 'sqlite',
  },
  {
    name: 'mutation runner: a restored file gets a new modification time (the build looks stale after it)',
    file: 'test/mutations/run.ts',
    from: '    utimesSync(file, atime, mtime);\n',
    to: '',
    tests: TESTS,
    project: 'sqlite',
  },
  {
    name: "test files: a killed run's leftovers are removed whether or not their process runs",
    file: 'test/helpers/database.ts',
    from: 'return pid !== undefined && !alive(Number(pid));',
    to: 'return pid !== undefined;',
    tests: ['test/test-leftovers.test.ts'],
    project: 'sqlite',
  },
  {
    name: "test files: a SQLite test file's directory does not say its process (a killed run's files stay for good)",
    file: 'test/helpers/database.ts',
    from: 'join(SQLITE_DIR, `streamers-test-${process.pid}-`)',
    to: "join(SQLITE_DIR, 'streamers-test-')",
    tests: ['test/test-leftovers.test.ts'],
    project: 'sqlite',
  },
  {
    name: 'drawing process from the source: the build is taken however old it is',
    file: 'scripts/build-freshness.js',
    from: '  if (newest.mtime > builtAt) return',
    to: '  if (newest.mtime > Infinity) return',
    tests: ['test/drawer-entry.test.ts'],
    project: 'sqlite',
  },
  {
    name: 'drawing process from the source: a build without its stamp (unfinished) is taken',
    file: 'scripts/build-freshness.js',
    from: "  if (!existsSync(stamp) || !existsSync(join(root, built))) return 'no build yet';\n",
    to: "  if (!existsSync(join(root, built))) return 'no build yet';\n  if (!existsSync(stamp)) return null;\n",
    tests: ['test/drawer-entry.test.ts'],
    project: 'sqlite',
  },
  {
    name: "kept PostgreSQL test schemas: emptied without RESTART IDENTITY (the next app's ids go on from the last one's)",
    file: 'test/helpers/schema-pool.ts',
    from: ' restart identity cascade;',
    to: ' cascade;',
    tests: REUSE,
    project: 'postgres',
  },
  {
    name: "kept PostgreSQL test schemas: the migrations' own rows not put back",
    file: 'test/helpers/schema-pool.ts',
    from: 'truncate, ...seeds, ...setvals',
    to: 'truncate, ...setvals',
    tests: REUSE,
    project: 'postgres',
  },
  {
    name: 'kept PostgreSQL test schemas: kept whatever a test did to their catalogue',
    file: 'test/helpers/schema-pool.ts',
    from: '(await fingerprint(client, schema)) === f.fingerprint',
    to: 'true',
    tests: REUSE,
    project: 'postgres',
  },
  {
    name: 'kept PostgreSQL test schemas: kept while a second instance or another process connects to them',
    file: 'test/helpers/schema-pool.ts',
    from: 'if (rows[0]?.n === 0) return true;',
    to: 'return true;',
    tests: REUSE,
    project: 'postgres',
  },
];
