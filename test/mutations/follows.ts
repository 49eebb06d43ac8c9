import type { Mutation } from './list.ts';

/** The fifth wave's "Following": follows, their limit, followers on items, `live` notifications. */
export const FOLLOW_MUTATIONS: Mutation[] = [
  {
    name: 'following: the limit lets the 501st follow through',
    file: 'src/follows/follow.ts',
    from: 'if ((await followCount(trx, userId)) >= FOLLOW_LIMIT)',
    to: 'if ((await followCount(trx, userId)) > FOLLOW_LIMIT)',
    tests: ['test/follows.test.ts'],
  },
  {
    name: "following: the limit counted without the user's lock (parallel follows pass it together)",
    file: 'src/follows/follow.ts',
    from: "      await lockRow(trx, 'users', userId);\n",
    to: '',
    tests: ['test/follows.test.ts'],
    // SQLite's group commit runs writes one after another whatever the operation locks.
    project: 'postgres',
  },
  {
    name: 'following: a streamer outside the Public view can be followed',
    file: 'src/follows/follow.ts',
    from: "      if (!(await streamerInPublicView(trx, streamerId))) throw fail('streamer_not_found');\n",
    to: '',
    tests: ['test/follows.test.ts'],
  },
  {
    name: 'following: a repeat follow is refused at the limit',
    file: 'src/follows/follow.ts',
    from: 'else if (!(await isFollowing(trx, userId, streamerId))) {',
    to: 'else {',
    tests: ['test/follows.test.ts'],
  },
  {
    name: 'following: items carry no followers (always 0)',
    file: 'src/streamers/queries.ts',
    from: 'followers: Number(r.followers ?? 0),',
    to: 'followers: 0,',
    tests: ['test/follows.test.ts'],
  },
  {
    name: 'following: a follow keeps the answers kept before it (no content version moves)',
    file: 'src/follows/follow.ts',
    from: "    'content',\n  );",
    to: "    'none',\n  );",
    tests: ['test/follows.test.ts'],
  },
  {
    name: 'following: a stream live sync starts notifies nobody',
    file: 'src/history/record.ts',
    from: '    await notifyLive(trx, made, now);\n',
    to: '',
    tests: ['test/follows.test.ts'],
  },
  {
    name: 'following: a live notification tells no open page of the unread count',
    file: 'src/notifications/notify.ts',
    from: "    ...[...byUser].map(([user_id, ids]): LiveEvent => ({ type: 'notification', user_id, created: ids })),\n",
    to: '',
    tests: ['test/follows.test.ts'],
  },
  {
    name: 'following: a stream notifies a follower more than once (no unique index)',
    file: 'src/db/migrations/022-follows.ts',
    from: "    .columns(['stream_id', 'user_id'])\n    .unique()\n",
    to: "    .columns(['stream_id', 'user_id'])\n",
    tests: ['test/follows.test.ts'],
  },
  {
    name: "following: an administrator's status change by hand notifies the followers",
    file: 'src/streamers/rate.ts',
    from: "  publish(trx, [{ type: 'rating', streamer_id: id }, ...liveChange(id, before, fields)]);\n",
    to: "  publish(trx, [{ type: 'rating', streamer_id: id }, ...liveChange(id, before, fields)]);\n  if (fields.status === 'live' && before.status !== 'live')\n    await trx.insertInto('notifications').columns(['user_id', 'kind', 'streamer_id', 'created_at'])\n      .expression((eb) => eb.selectFrom('follows').select((e) => ['follows.user_id', e.val('live').as('kind'),\n        'follows.streamer_id', e.val(rating.updated_at).as('created_at')]).where('follows.streamer_id', '=', id))\n      .execute();\n",
    tests: ['test/follows.test.ts'],
  },
  {
    name: 'following: follows are left out of the account export',
    file: 'src/account/queries.ts',
    from: '    follows: await followsOf(db, userId),\n',
    to: '',
    tests: ['test/follows.test.ts'],
  },
  {
    name: 'following: an account cannot be deleted while it follows (no cascade)',
    file: 'src/db/migrations/022-follows.ts',
    from: ".addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))",
    to: ".addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))",
    tests: ['test/follows.test.ts'],
  },
  {
    name: "following: the ranking's Followed filter keeps every streamer (the page)",
    file: 'web/src/lib/ranking.ts',
    from: '.filter(({ s }) => !f.followedOnly || mine.has(s.id))',
    to: '.filter(({ s }) => !f.followedOnly || s.id > 0 || mine.has(s.id))',
    tests: ['test/browser/web-ranking.test.ts'],
    web: true,
  },
];
