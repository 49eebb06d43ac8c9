import type { Mutation } from './list.ts';

/** Issue 30 items 11 (Idempotency-Key on POST) and 9 (from SQLite to PostgreSQL). */
export const IDEMPOTENCY_MUTATIONS: Mutation[] = [
  {
    name: 'idempotency: a retry runs again instead of getting the kept answer (replay ignored)',
    file: 'src/idempotency/plugin.ts',
    from: "else if (outcome.kind === 'replay') return replay(reply, outcome.answer);",
    to: "else if (outcome.kind === 'replay') return;",
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: "idempotency: keys are not scoped to the sender (one client reads another's answer)",
    file: 'src/idempotency/plugin.ts',
    from: '  const user = request.session?.data.oauth_user?.id;\n',
    to: "  return 'anyone';\n  const user = request.session?.data.oauth_user?.id;\n",
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: 'idempotency: the claim is not atomic (no unique key under the insert-first claim)',
    file: 'src/db/migrations/017-idempotency.ts',
    from: "    .addPrimaryKeyConstraint('idempotency_keys_pk', ['sender', 'key'])\n",
    to: '',
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: 'idempotency: a claim in flight is taken over at once (two requests run)',
    file: 'src/idempotency/queries.ts',
    from: "    if (row.created_at > iso(now.getTime() - ABANDONED_AFTER)) return { kind: 'in_use' };\n",
    to: '',
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: 'idempotency: instances claim without a shared unique key (PostgreSQL)',
    file: 'src/db/migrations/017-idempotency.ts',
    from: "    .addPrimaryKeyConstraint('idempotency_keys_pk', ['sender', 'key'])\n",
    to: '',
    tests: ['test/idempotency.test.ts'],
    project: 'postgres',
  },
  {
    name: 'idempotency: a key is kept for ever (no expiry after a day)',
    file: 'src/idempotency/queries.ts',
    from: 'if (row.created_at <= iso(now.getTime() - KEPT_FOR)) {',
    to: 'if (row.created_at <= iso(now.getTime() - 1000 * KEPT_FOR)) {',
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: "idempotency: the page's retry of a lost answer goes without the first one's key",
    file: 'web/src/lib/api.ts',
    from: "  request.headers.set('Idempotency-Key', crypto.randomUUID());\n  const again = request.clone();\n",
    to: "  const again = request.clone();\n  request.headers.set('Idempotency-Key', crypto.randomUUID());\n",
    tests: ['test/browser/web-idempotency.test.ts'],
    web: true,
  },
  {
    name: "export: an import into PostgreSQL leaves a table's id sequence behind its rows",
    file: 'src/cli/data.ts',
    from: "  'ban_addresses',\n];\n",
    to: '];\n',
    tests: ['test/export-to-postgres.test.ts'],
    project: 'postgres',
  },
];
