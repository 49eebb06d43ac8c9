import type { Mutation } from './list.ts';

/** What an operator's bad day found (helper h2, stop 98): starts, the tool and its files. */
export const OPERATOR_DAY_MUTATIONS: Mutation[] = [
  {
    name: 'a stop: the log ends at "SIGTERM received" again, nothing says it finished',
    file: 'src/server.ts',
    from: "    app.log.info('stopped: every request answered, the database closed');\n",
    to: '',
    tests: ['test/start-log.test.ts'],
  },
  {
    name: 'a database a newer version migrated is said as Kysely\'s "corrupted migrations" again',
    file: 'src/db/migrator.ts',
    from: '  if (newer.length > 0) throw new NewerDatabaseError(newer);\n',
    to: '',
    tests: ['test/migration-newer.test.ts'],
  },
  {
    name: "export: written in place again (a failed export cuts yesterday's file)",
    file: 'src/cli/commands/export.ts',
    from: '  await writeWhole(file, (partial) => writeFile(partial, text));\n',
    to: '  await writeFile(file, text, { mode: 0o600 });\n',
    tests: ['test/cli-data.test.ts'],
  },
  {
    name: 'export and backup: a file out of room is said by the system code (EFBIG) only',
    file: 'src/backup/files.ts',
    from: "  if (code === 'ENOSPC' || code === 'EFBIG' || code === 'EDQUOT' || code === 'SQLITE_FULL')\n",
    to: "  if (code === 'ENOSPC')\n",
    tests: ['test/cli-data.test.ts'],
  },
  {
    name: 'admin login: said as signed in before its session is written (a full disk answers 503)',
    file: 'src/auth/routes.ts',
    from: '    if (caller && reply.statusCode === 200)\n',
    to: '    if (caller)\n',
    tests: ['test/auth.test.ts'],
  },
  {
    name: 'change listener: each failed reconnect is a warning again (an outage of an hour, 360 lines)',
    file: 'src/db/other-instances.ts',
    from: '      if (failures++ === 0 && !lost)\n',
    to: '      if ((failures++, true))\n',
    tests: ['test/pg-listener.test.ts'],
    project: 'postgres',
  },
  {
    name: "change listener: its reconnect pauses are real time's, which no test moves",
    file: 'src/db/other-instances.ts',
    from: '    clock.sleep(pause, pausing.signal).then(\n',
    to: '    new Promise<void>((end) => setTimeout(end, pause)).then(\n',
    tests: ['test/pg-listener.test.ts'],
    project: 'postgres',
  },
  {
    name: 'change listener: its reconnect pauses do not grow',
    file: 'src/db/other-instances.ts',
    from: '    delay = Math.min(delay * 2, 10_000);\n',
    to: '',
    tests: ['test/pg-listener.test.ts'],
    project: 'postgres',
  },
  {
    name: 'change listener: listening again after an outage is said nowhere',
    file: 'src/db/other-instances.ts',
    from: '      if (lost || failures > 0)\n',
    to: '      if (false)\n',
    tests: ['test/pg-listener.test.ts'],
    project: 'postgres',
  },
  {
    name: "restore: a copy that ran 007-reaching-out under its old name is taken for a newer version's",
    file: 'src/db/migrator.ts',
    from: ' && !Object.hasOwn(RENAMED_MIGRATIONS, n)',
    to: '',
    tests: ['test/backups.test.ts'],
  },
];
