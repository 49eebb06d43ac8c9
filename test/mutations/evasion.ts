import type { Mutation } from './list.ts';

/** Issue 45 item 5 (ban and time-out evasion) and item 26 (the OpenAPI document). */
export const EVASION_MUTATIONS: Mutation[] = [
  {
    name: "evasion: a ban's remembered addresses do not hold guest comments",
    file: 'src/comments/hold.ts',
    from: 'if (rule === BANNED_ADDRESS) return d.guest;',
    to: 'if (rule === BANNED_ADDRESS) return false;',
    tests: ['test/ban-evasion.test.ts'],
  },
  {
    name: "evasion: a ban's addresses hold guest comments after their 30 days",
    file: 'src/comments/hold.ts',
    from: 'b.guest_tag = ${v.guestTag} and b.expires_at > ${v.createdAt}',
    to: 'b.guest_tag = ${v.guestTag}',
    tests: ['test/ban-evasion.test.ts'],
  },
  {
    name: 'evasion: sessions record no address',
    file: 'src/plugins/session.ts',
    from: 'if (key !== null && userId !== null) await store.recordAddress',
    to: 'if (key !== null && userId === -1) await store.recordAddress',
    tests: ['test/ban-evasion.test.ts'],
  },
  {
    name: 'evasion: a session records its address on every request',
    file: 'src/sessions/addresses.ts',
    from: '): boolean => recorded.tag !== tag || !(nowMs - recorded.atMs < ADDRESS_REFRESH_MS);',
    to: '): boolean => recorded.tag !== tag || nowMs >= recorded.atMs;',
    tests: ['test/ban-evasion.test.ts'],
  },
  {
    name: 'evasion: a session never refreshes an address it keeps using',
    file: 'src/sessions/addresses.ts',
    from: '): boolean => recorded.tag !== tag || !(nowMs - recorded.atMs < ADDRESS_REFRESH_MS);',
    to: '): boolean => recorded.tag !== tag;',
    tests: ['test/ban-evasion.test.ts'],
  },
  {
    name: 'evasion: a user keeps every address',
    file: 'src/sessions/addresses.ts',
    from: '.limit(LIMITS.userAddresses)',
    to: '.limit(LIMITS.userAddresses * 100)',
    tests: ['test/ban-evasion.test.ts'],
  },
  {
    name: "evasion: a time-out does not follow the user's addresses",
    file: 'src/guests/rules.ts',
    from: "  if (refused.has('timed_out')) throw fail('timed_out');\n",
    to: '',
    tests: ['test/ban-evasion.test.ts'],
  },
  {
    name: "evasion: a time-out refuses the user's addresses after it ended",
    file: 'src/guests/rules.ts',
    from: 'and u.timeout_until > ${v.createdAt})',
    to: 'and u.timeout_until is not null)',
    tests: ['test/ban-evasion.test.ts'],
  },
  {
    name: "evasion: a time-out refuses every guest's comment",
    file: 'src/guests/rules.ts',
    from: 'where a.guest_tag = ${v.guestTag} and a.seen_at',
    to: 'where a.guest_tag is not null and a.seen_at',
    tests: ['test/ban-evasion.test.ts'],
  },
  {
    name: "evasion: a comment from a timed-out user's address is not refused",
    file: 'src/comments/rules.ts',
    from: "  { ...ADDRESS_TIMED_OUT, to: 'guests' },\n",
    to: '',
    tests: ['test/ban-evasion.test.ts'],
  },
];
