import type { Mutation } from './list.ts';

/** Issue 29 ("Trust is earned") and issue 30, item 1 (a ban outlives the account). */
export const EARNED_TRUST_MUTATIONS: Mutation[] = [
  {
    name: 'issue 29: a ban lost with the account',
    file: 'src/users/bans.ts',
    from: "if (tombstone) await db.updateTable('users').set({ banned: 1 })",
    to: "if (tombstone && false) await db.updateTable('users').set({ banned: 1 })",
    tests: ['test/moderators-tools.test.ts'],
  },
  {
    name: 'issue 29: a returning account not held',
    file: 'src/users/bans.ts',
    from: ".where('expires_at', '>', at)",
    to: ".where('expires_at', '<', at)",
    tests: ['test/moderators-tools.test.ts'],
  },
  {
    name: 'issue 29: a moderator bans staff',
    file: 'src/users/change.ts',
    from: "if (!viewer.isAdmin && (found.is_mod || found.is_admin)) throw fail('admin_only');",
    to: '',
    tests: ['test/moderators-tools.test.ts'],
  },
  {
    name: 'issue 29: a moderator grants roles',
    file: 'src/users/change.ts',
    from: "if (!viewer.isAdmin && (is_mod !== undefined || is_admin !== undefined)) throw fail('admin_only');",
    to: '',
    tests: ['test/moderators-tools.test.ts'],
  },
  {
    name: 'issue 29: a timed-out vote stored',
    file: 'src/votes/routes.ts',
    from: '{ guard: VOTE_ROLES.vote, contribution: true }',
    to: '{ guard: VOTE_ROLES.vote }',
    tests: ['test/moderators-tools.test.ts'],
  },
  {
    name: 'issue 29: a timed-out like stored',
    file: 'src/comments/routes.ts',
    from: 'guard: (query) => (flag(query.like) ? COMMENT_ROLES.like : COMMENT_ROLES.change),\n        contribution: true,',
    to: "guard: (query) => (flag(query.like) ? COMMENT_ROLES.like : COMMENT_ROLES.change),\n        contribution: (request) => !request.url.includes('like=1'),",
    tests: ['test/moderators-tools.test.ts'],
  },
  {
    name: 'issue 29: a reused challenge solution accepted',
    file: 'src/guests/challenge.ts',
    from: "if (!used) throw new DomainError('challenge_invalid');",
    to: '',
    tests: ['test/guest-trust.test.ts'],
  },
  {
    name: 'issue 29: a held comment in the public list',
    file: 'src/comments/queries.ts',
    from: "      .where('comments.pending', '=', 0)\n",
    to: '',
    tests: ['test/guest-trust.test.ts'],
  },
  {
    name: "issue 29: a held comment in the streamer's comment count",
    file: 'src/streamers/queries.ts',
    from: "          .where('comments.pending', '=', 0)\n",
    to: '',
    tests: ['test/guest-trust.test.ts'],
  },
  {
    name: 'issue 29: links not held',
    file: 'src/comments/hold.ts',
    from: "if (hold === 'all' || hasLink(body)) return true;",
    to: "if (hold === 'all') return true;",
    tests: ['test/guest-trust.test.ts'],
  },
  {
    name: 'issue 29: a signed-in user challenged',
    file: 'src/comments/rules.ts',
    from: "{ ...CHALLENGE_DUE, to: 'guests' }",
    to: "{ ...CHALLENGE_DUE, to: 'all' }",
    tests: ['test/guest-trust.test.ts'],
  },
  {
    name: 'issue 29: a change of guest_hold not audited',
    file: 'src/settings/routes.ts',
    from: "await audit(trx, actor, { action: 'settings.update', params: { key: 'guest_hold', value: hold } });",
    to: '',
    tests: ['test/audit.test.ts'],
  },
];
