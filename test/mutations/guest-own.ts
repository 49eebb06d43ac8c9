import type { Mutation } from './list.ts';

/**
 * Issue 30 item 22 and issue 29: a guest's own comments, and the held comment shown to its
 * author; stop 34: what may keep the session cache.
 */
export const GUEST_OWN_MUTATIONS: Mutation[] = [
  {
    name: 'issue 30: a guest deletes a comment not in its cookie',
    file: 'src/comments/policy.ts',
    from: 'mayDelete(who) || ownIds.includes(id);',
    to: 'mayDelete(who) || ownIds.length > 0;',
    tests: ['test/guest-own.test.ts'],
  },
  {
    name: "issue 30: a guest's own-comments cookie with a forged signature accepted",
    file: 'src/comments/own-cookie.ts',
    from: 'if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;',
    to: 'if (given.length !== expected.length) return null;',
    tests: ['test/guest-own.test.ts'],
  },
  {
    name: "issue 30: a guest's own-comments cookie past its time still owns",
    file: 'src/comments/own-cookie.ts',
    from: 'if (Number(until) * 1000 < opts.clock.now().getTime()) return null;',
    to: '',
    tests: ['test/guest-own.test.ts'],
  },
  {
    name: "issue 29: an author's own held comment shown to others",
    file: 'src/comments/own.ts',
    from: "eb('comments.user_id', '=', userId)",
    to: "eb('comments.user_id', 'is not', null)",
    tests: ['test/guest-own.test.ts'],
  },
  {
    name: "issue 29: an author's own held comment counted",
    file: 'src/streamers/queries.ts',
    from: ".where('comments.pending', '=', sql.lit(0))",
    to: '',
    tests: ['test/guest-own.test.ts'],
  },
  {
    name: 'stop 34: every content change keeps the session cache (a ban or a lost flag seen late)',
    file: 'src/db/changes.ts',
    from: '    this.sessions++;\n    this.bumpContent();',
    to: '    this.bumpContent();',
    tests: ['test/staff-accounts.test.ts'],
  },
];
