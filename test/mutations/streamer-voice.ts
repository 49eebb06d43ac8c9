import type { Mutation } from './list.ts';

/** Issue 26: the rules of who speaks for a streamer, and the label that is never returned. */
export const STREAMER_VOICE_MUTATIONS: Mutation[] = [
  {
    name: "speaks for: another platform's account with the same login matches",
    file: 'src/catalogue/speaks-for.ts',
    from: 'if (u.provider !== s.platform || foldLogin(u.login) !== channel) continue;',
    to: 'if (foldLogin(u.login) !== channel) continue;',
    tests: ['test/streamer-voice.test.ts'],
  },
  {
    name: "speaks for: the channel's learnt account id is ignored",
    file: 'src/catalogue/speaks-for.ts',
    from: 'if (accountId !== null && u.provider_id !== accountId) continue;',
    to: '',
    tests: ['test/streamer-voice.test.ts'],
  },
  {
    name: 'speaks for: a banned user still speaks (and replies)',
    file: 'src/catalogue/speaks-for.ts',
    from: 'return best !== null && !best.banned ? best.id : null;',
    to: 'return best !== null ? best.id : null;',
    tests: ['test/streamer-voice.test.ts'],
  },
  {
    name: 'reply: a banned session may reply',
    file: 'src/streamers/reply.ts',
    from: "  if (viewer.bannedUser) throw fail('banned');\n",
    to: '',
    tests: ['test/streamer-voice.test.ts'],
  },
  {
    name: "the Full view returns the suggester's label (submitter) again",
    file: 'src/streamers/views.ts',
    from: "...(view === 'full' ? { suggested_by: row.suggested_by } : {}),",
    to: "...(view === 'full' ? { suggested_by: row.suggested_by, submitter: row.submitter } : {}),",
    tests: ['test/streamer-voice.test.ts'],
  },
  {
    name: 'live sync adopts a changed account id (a re-registered login takes the page over)',
    file: 'src/sync/queries.ts',
    from: 'if (id === undefined || learntAccountId(row) !== null) return {};',
    to: 'if (id === undefined) return {};',
    tests: ['test/streamer-voice.test.ts'],
  },
  {
    name: 'the share card is kept under an ETag that ignores the verified mark',
    file: 'src/images/routes.ts',
    from: '    item.verified,\n',
    to: '',
    tests: ['test/streamer-voice.test.ts'],
  },
  {
    name: 'the share card leaves the verified mark out',
    file: 'src/images/card.ts',
    from: 'if (data.verified) verifiedMark(',
    to: 'if (!data) verifiedMark(',
    tests: ['test/streamer-voice.test.ts'],
  },
];
