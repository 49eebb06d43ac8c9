import type { Mutation } from './list.ts';

/**
 * Issue 30 items 11 (Idempotency-Key on POST) and 9 (from SQLite to PostgreSQL); issue 40 (the key,
 * the writes and the answer in one transaction); issue 45 items 2 and 3 (only answers of operations
 * that ran; no key on the sign-ins).
 */
export const IDEMPOTENCY_MUTATIONS: Mutation[] = [
  {
    name: 'idempotency: a retry runs again instead of getting the kept answer (replay ignored)',
    file: 'src/idempotency/plugin.ts',
    from: "      if (found?.kind === 'replay') return replay(reply, found.answer);\n      if (found?.kind === 'reused') throw fail('idempotency_key_reused');\n      request.idempotency = pending;\n",
    to: "      if (found?.kind === 'reused') throw fail('idempotency_key_reused');\n      request.idempotency = pending;\n",
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
    name: 'idempotency: no unique key under the kept answers (two copies both commit)',
    file: 'src/db/migrations/017-idempotency.ts',
    from: "    .addPrimaryKeyConstraint('idempotency_keys_pk', ['sender', 'key'])\n",
    to: '',
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: 'idempotency: instances keep answers without a shared unique key (PostgreSQL)',
    file: 'src/db/migrations/017-idempotency.ts',
    from: "    .addPrimaryKeyConstraint('idempotency_keys_pk', ['sender', 'key'])\n",
    to: '',
    tests: ['test/idempotency.test.ts'],
    project: 'postgres',
  },
  {
    name: 'idempotency: a request whose key was taken meanwhile still commits its writes (issue 40)',
    file: 'src/idempotency/queries.ts',
    from: "  if (!kept) throw fail('idempotency_key_in_use');",
    to: '  if (!kept) return;',
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: 'idempotency: a request whose key was taken meanwhile still commits its writes (issue 40, PostgreSQL)',
    file: 'src/idempotency/queries.ts',
    from: "  if (!kept) throw fail('idempotency_key_in_use');",
    to: '  if (!kept) return;',
    tests: ['test/idempotency.test.ts'],
    project: 'postgres',
  },
  {
    name: "idempotency: a copy that failed on the winner's write answers its own error, not the kept answer",
    file: 'src/idempotency/plugin.ts',
    from: '          if (pending === null) throw err;\n',
    to: '          throw err;\n',
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: 'idempotency: the answer of another request under the same key is replayed (no 422)',
    file: 'src/idempotency/queries.ts',
    from: "  if (row.request !== pending.request) return { kind: 'reused' };\n",
    to: '',
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: 'idempotency: the sign-ins and the 405-only POSTs take a key too (issue 45 item 3)',
    file: 'src/idempotency/plugin.ts',
    from: '      if (route.config?.idempotencyKey !== true) return;\n',
    to: "      if (![route.method].flat().includes('POST')) return;\n",
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: "idempotency: the kept answer's status is not the one the route sent",
    file: 'src/idempotency/keep.ts',
    from: '    await keepIn(trx, pending, { status, headers: replayedHeaders(reply), body });\n',
    to: '    await keepIn(trx, pending, { status: 200, headers: replayedHeaders(reply), body });\n',
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: 'idempotency: the API document names the key on every POST (the sign-ins too)',
    file: 'src/openapi/rules.ts',
    from: "  const keyed = method === 'post' && facts.keyed;",
    to: "  const keyed = method === 'post';",
    tests: ['test/idempotency.test.ts'],
  },
  {
    name: 'idempotency: a key is kept for ever (no expiry after a day)',
    file: 'src/idempotency/queries.ts',
    from: ".where('created_at', '>', iso(pending.at.getTime() - KEPT_FOR))",
    to: ".where('created_at', '>', iso(pending.at.getTime() - 1000 * KEPT_FOR))",
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
    file: 'src/cli/data-tables.ts',
    from: "  'ban_addresses',\n  'staff_reviews',\n  'rerating_requests',\n];\n",
    to: "  'staff_reviews',\n  'rerating_requests',\n];\n",
    tests: ['test/export-to-postgres.test.ts'],
    project: 'postgres',
  },
];
