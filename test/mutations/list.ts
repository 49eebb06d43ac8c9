/** The rules broken on purpose by `npm run mutations`, and the tests that must notice. */
export interface Mutation {
  name: string;
  file: string;
  from: string;
  to: string;
  tests: string[];
  /** The database the mutation shows on (default sqlite). */
  project?: 'sqlite' | 'postgres';
}

export const MUTATIONS: Mutation[] = [
  {
    name: 'moderator reward rounds down instead of to nearest',
    file: 'src/shared/rules.ts',
    from: 'Math.round(30 + (sum / 70) * 100)',
    to: 'Math.floor(30 + (sum / 70) * 100)',
    tests: ['test/streamers-rating.test.ts'],
  },
  {
    name: "owner demotion without the team filter (demotes every team's owner)",
    file: 'src/groups/member-queries.ts',
    from: ".where('group_id', '=', member.group_id)\n      .where('role', '=', 'owner')",
    to: ".where('role', '=', 'owner')",
    tests: ['test/group-members.test.ts'],
  },
  {
    name: "a moderator's zero sum does not clear evaluated",
    file: 'src/streamers/routes.ts',
    from: ': { evaluated };',
    to: ': {};',
    tests: ['test/streamers-rating.test.ts'],
  },
  {
    name: 'community averages round half down',
    file: 'src/community/queries.ts',
    from: 'Math.floor((20 * sum + count) / (2 * count))',
    to: 'Math.ceil((20 * sum - count) / (2 * count))',
    tests: ['test/community.test.ts'],
  },
  {
    name: 'the audit record is written outside the transaction',
    file: 'src/streamers/routes.ts',
    from: "await audit(trx, actor, {\n          action: viewer.isAdmin ? 'streamer.edit'",
    to: "await audit(db, actor, {\n          action: viewer.isAdmin ? 'streamer.edit'",
    tests: ['test/audit.test.ts'],
    project: 'postgres',
  },
  {
    name: 'cuts in UTF-16 units (splitting emoji)',
    file: 'src/lib/input.ts',
    from: '  if (s.length <= max) return s;',
    to: '  return s.slice(0, max);',
    tests: ['test/streamers-create.test.ts', 'test/streamers-rating.test.ts', 'test/comments.test.ts'],
  },
  {
    name: 'comment length counted in UTF-16 units',
    file: 'src/shared/rules.ts',
    from: '  for (const _ of s) n++;\n  return n;',
    to: '  return s.length + n;',
    tests: ['test/comments.test.ts'],
  },
  {
    name: 'repeated query parameters: the last one wins in the parser (guard and handler differ)',
    file: 'src/plugins/parsers.ts',
    from: '!Object.hasOwn(out, k)',
    to: 'true',
    tests: ['test/hostile-input.test.ts'],
  },
  {
    name: 'NUL characters reach the database',
    file: 'src/plugins/parsers.ts',
    from: "s.includes('\\u0000') ? s.replaceAll('\\u0000', '') : s",
    to: 's',
    tests: ['test/hostile-input.test.ts'],
    project: 'postgres',
  },
  {
    name: 'JSON prototype keys accepted',
    file: 'src/plugins/parsers.ts',
    from: "protoAction: 'error', constructorAction: 'error'",
    to: "protoAction: 'ignore', constructorAction: 'ignore'",
    tests: ['test/hostile-input.test.ts'],
  },
  {
    name: 'add-member does not lock the team (concurrent owners)',
    file: 'src/groups/members.ts',
    from: "await lockRow(trx, 'rater_groups', groupId);",
    to: '',
    tests: ['test/races.test.ts'],
    project: 'postgres',
  },
  {
    name: 'a write does not move the content version (stale cached answers)',
    file: 'src/db/transaction.ts',
    from: '  contentVersion(db).bump();\n',
    to: '',
    tests: ['test/caching.test.ts'],
  },
  {
    name: 'hidden comments shown to everybody',
    file: 'src/comments/queries.ts',
    from: "if (!opts.withHidden) q = q.where('comments.hidden', '=', 0);",
    to: '',
    tests: ['test/comment-moderation.test.ts'],
  },
  {
    name: 'the edit window is 30 minutes',
    file: 'src/comments/routes.ts',
    from: '> EDIT_WINDOW)',
    to: '> 2 * EDIT_WINDOW)',
    tests: ['test/comment-moderation.test.ts'],
  },
  {
    name: 'logins compared with the database lower() (ASCII-only on SQLite)',
    file: 'src/groups/member-queries.ts',
    from: ".where('login_key', '=', foldCase(login))",
    to: ".where((eb) => eb(eb.fn('lower', ['login']), '=', login))",
    tests: ['test/group-members.test.ts'],
  },
  {
    name: 'the guard decides on the raw query instead of the parsed one',
    file: 'src/plugins/guards.ts',
    from: 'guard(parsedQuery(request))',
    to: "guard(Object.fromEntries(new URLSearchParams(request.url.split('?')[1] ?? '')))",
    tests: ['test/hostile-input.test.ts'],
  },
  {
    name: 'live sync: offline on the first check that does not show the streamer live',
    file: 'src/sync/queries.ts',
    from: ': misses >= 2',
    to: ': misses >= 1',
    tests: ['test/live-sync.test.ts'],
  },
  {
    name: "live sync: Kick's wrong-data batch is taken as it comes",
    file: 'src/sync/provider-b.ts',
    from: 'if (!asked.has(slug)) {',
    to: 'if (asked.size < 0) {',
    tests: ['test/live-sync.test.ts'],
  },
  {
    name: 'live sync: a 401 is not answered with a new app token',
    file: 'src/sync/client.ts',
    from: "if (!(err instanceof SyncError) || err.kind !== 'unauthorized') throw err;",
    to: 'throw err;',
    tests: ['test/live-sync.test.ts'],
  },
  {
    name: 'live sync: the lease is taken while another instance holds it',
    file: 'src/sync/lease.ts',
    from: "eb('sync_lease.expires_at', '<=', now.toISOString())",
    to: "eb('sync_lease.expires_at', '>=', now.toISOString())",
    tests: ['test/live-sync-lease.test.ts'],
  },
  {
    name: 'live sync: Twitch streams calls without first=100 (pages of 20)',
    file: 'src/sync/provider-a.ts',
    from: "query.set('first', '100');",
    to: '',
    tests: ['test/live-sync-lease.test.ts'],
  },
  {
    name: 'live sync: Kick batches of 50 slugs',
    file: 'src/sync/provider-b.ts',
    from: 'batchSize: 25,',
    to: 'batchSize: 50,',
    tests: ['test/live-sync-lease.test.ts'],
  },
  {
    name: 'hot paths: a successful health check is remembered for good',
    file: 'src/health/check.ts',
    from: 'if (performance.now() - answeredAt < HEALTH_FRESH_MS) return undefined;',
    to: 'if (answeredAt > 0) return undefined;',
    tests: ['test/hot-paths.test.ts'],
  },
  {
    name: "hot paths: a session's change writes into the cached data other requests share",
    file: 'src/sessions/session.ts',
    from: '      this.data = { ...this.data };',
    to: '',
    tests: ['test/hot-paths.test.ts'],
  },
  {
    name: 'hot paths: automatic HEAD routes get no guard',
    file: 'src/plugins/guards.ts',
    from: "if (guard !== 'public') addRouteHook(route, guardHook(guard));",
    to: "if (guard !== 'public' && route.method !== 'HEAD') addRouteHook(route, guardHook(guard));",
    tests: ['test/route-guards.test.ts'],
  },
  {
    name: 'hot paths: the lazy request logger loses the request id',
    file: 'src/lib/request-log.ts',
    from: 'return (this.#child ??= this.parent.child(this.bindings));',
    to: 'return (this.#child ??= this.parent.child({}));',
    tests: ['test/hot-paths.test.ts'],
  },
];
