import type { Mutation } from './list.ts';

/**
 * Issue 45 attack item 4 (limits of the event streams) and operator items 20 (a key whose
 * write did not commit), 21 (out of file descriptors), 22 (the version) and 23 (releases).
 */
export const OPERATOR_MUTATIONS: Mutation[] = [
  {
    name: 'start: no object of process.nextTick is kept (V8 forgets their shape; small answers ~15% slower)',
    file: 'src/server.ts',
    from: '  await keepNextTickShape();\n',
    to: '',
    tests: ['test/next-tick.test.ts'],
  },
  {
    name: 'start: the service runs with Maglev again (npm start, the unit and README no longer what the bench measured)',
    file: 'src/node-args.ts',
    from: "  '--no-maglev',\n] as const;",
    to: '] as const;',
    tests: ['test/config.test.ts', 'test/deploy.test.ts'],
  },
  {
    name: 'event streams: no overall cap (streams take every connection)',
    file: 'src/events/streams.ts',
    from: "    if (this.#streams.size >= this.limits.total) return 'total';\n",
    to: '',
    tests: ['test/event-stream-limits.test.ts'],
  },
  {
    name: 'event streams: no limit per network (many addresses of one /24 hold streams without bound)',
    file: 'src/events/streams.ts',
    from: "    if ((this.#perNetwork.get(networkOf(address)) ?? 0) >= this.limits.perNetwork) return 'network';\n",
    to: '',
    tests: ['test/event-stream-limits.test.ts'],
  },
  {
    name: 'event streams: a stream lives for good (no lifetime)',
    file: 'src/events/streams.ts',
    from: '        if (now - s.openedAt >= limits.lifetimeMs) this.#end(s);\n        else this.#write(s, heartbeat);\n',
    to: '        this.#write(s, heartbeat);\n',
    tests: ['test/event-stream-limits.test.ts'],
  },
  {
    name: 'event streams: a stream ended for its lifetime is not told where the log stands (its reconnection resets)',
    file: 'src/events/streams.ts',
    from: '      this.#send(stream, `id: ${this.tail.cursor}\\n:\\n\\n`);\n',
    to: '      void 0;\n',
    tests: ['test/event-stream-limits.test.ts'],
  },
  {
    name: 'idempotency: the page gives up on a 409 for its key instead of sending it again',
    file: 'web/src/lib/api.ts',
    from: '    if (!(await stillRunning(answer))) break;\n',
    to: '    break;\n',
    tests: ['test/browser/web-idempotency.test.ts'],
    web: true,
  },
  {
    name: 'version: the backup alert fires only on an old backup, not when the metric is missing',
    file: 'deploy/prometheus/streamer-rating.rules.yml',
    from: '\n          or absent(backup_last_success_timestamp_seconds{job="streamer-rating"})',
    to: '',
    tests: ['test/alert-rules.test.ts'],
  },
  {
    name: 'version: a build does not carry the commit its stamp recorded (0.4.0-dev for every commit)',
    file: 'src/lib/version.ts',
    from: '  const commit = built ? stampedCommit(project.root) : checkedOutCommit(project.root);',
    to: '  const commit = built ? null : checkedOutCommit(project.root);',
    tests: ['test/versions.test.ts'],
  },
  {
    name: "version: the build's stamp does not record the commit",
    file: 'scripts/build-if-stale.js',
    from: '  const commit = commitBuilt();\n',
    to: '  const commit = null;\n',
    tests: ['test/versions.test.ts'],
  },
  {
    name: 'descriptors: running out of them sheds nothing (requests hang at the limit)',
    file: 'src/plugins/load-shedding.ts',
    from: '      short = now !== null && descriptorsShort(now);\n',
    to: '      short = false;\n',
    tests: ['test/faults/descriptors.test.ts', 'test/descriptors.test.ts'],
  },
  {
    name: 'descriptors: said in the log at every count, not once a minute',
    file: 'src/plugins/load-shedding.ts',
    from: '      if (at - loggedAt < DESCRIPTORS_LOG_MS) return;\n',
    to: '',
    tests: ['test/descriptors.test.ts'],
  },
  {
    name: 'release: the archive leaves out the lock file (npm ci cannot install it)',
    file: 'scripts/release.js',
    from: "  'package-lock.json',\n",
    to: '',
    tests: ['test/release.test.ts'],
  },
  {
    name: "release: the archive leaves out npm start's build check (the start fails)",
    file: 'scripts/release.js',
    from: "  'scripts/build-if-stale.js',\n",
    to: '',
    tests: ['test/release.test.ts'],
  },
  {
    name: 'cli: an export file is readable by all (0644)',
    file: 'src/cli/commands/export.ts',
    from: '  writeFileSync(file, text, { mode: BACKUP_MODE });\n  chmodSync(file, BACKUP_MODE);\n',
    to: '  writeFileSync(file, text);\n',
    tests: ['test/cli-data.test.ts'],
  },
  {
    name: 'cli: an export read only in part ends with an EPIPE stack trace',
    file: 'src/cli/commands/export.ts',
    from: "  if (file === '-') return toStdout(text + '\\n');",
    to: "  if (file === '-') return void process.stdout.write(text + '\\n');",
    tests: ['test/cli-data.test.ts'],
  },
];
