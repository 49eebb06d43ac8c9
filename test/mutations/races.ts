import type { Mutation } from './list.ts';

/** Writes side by side on one row that another of them replaces or removes (PostgreSQL). */
const TESTS = ['test/races-rows.test.ts'];

export const RACE_MUTATIONS: Mutation[] = [
  {
    name: "races: two replacements of a streamer's schedule do not take turns",
    file: 'src/schedules/keep.ts',
    from: "    await lockRow(trx, 'streamers', id);\n",
    to: '',
    tests: TESTS,
    project: 'postgres',
  },
  {
    name: 'races: a comment to hide, like or delete is read without its row locked',
    file: 'src/comments/queries.ts',
    from: '  return commentRow(db, id).forUpdate().executeTakeFirst();\n',
    to: '  return commentRow(db, id).executeTakeFirst();\n',
    tests: TESTS,
    project: 'postgres',
  },
  {
    name: "races: a comment's write locks the comment before its streamer (deadlock with the streamer's delete)",
    file: 'src/comments/queries.ts',
    from: "  await (streamer === 'update' ? row.forUpdate() : row.forKeyShare()).execute();\n",
    to: '',
    tests: ['test/races-streamer-delete.test.ts'],
    project: 'postgres',
  },
  {
    name: "races: a rating locks its rating before its streamer's row (deadlock with the streamer's delete)",
    file: 'src/streamers/rate.ts',
    from: "    await lockRow(trx, 'streamers', id);\n    const before",
    to: '    const before',
    tests: ['test/races-streamer-delete.test.ts'],
    project: 'postgres',
  },
  {
    name: "races: a bulk action locks its comments before their streamers (deadlock with a streamer's delete)",
    file: 'src/moderation/queries.ts',
    from: '      .forKeyShare()\n',
    to: '      .limit(0)\n',
    tests: ['test/races-streamer-delete.test.ts'],
    project: 'postgres',
  },
  {
    name: "races: a bulk action's targets are read without their rows locked",
    file: 'src/moderation/queries.ts',
    from: "  if (!isSqlite(trx)) q = q.orderBy('comments.id').forUpdate('comments');\n",
    to: '',
    tests: TESTS,
    project: 'postgres',
  },
  {
    name: 'races: a reply whose parent a delete took away meanwhile answers 404, not Invalid reply_to',
    file: 'src/db/write-failure.ts',
    from: "  if (key.column === 'reply_to') return fail('invalid_reply_to');\n",
    to: '',
    tests: TESTS,
    project: 'postgres',
  },
  {
    name: 'races: a write whose streamer a delete took away meanwhile answers 500',
    file: 'src/db/write-failure.ts',
    from: "  streamers: 'streamer_not_found',\n",
    to: '',
    tests: TESTS,
    project: 'postgres',
  },
  {
    name: 'races: the error handler does not ask whether a row was deleted meanwhile',
    file: 'src/plugins/errors.ts',
    from: '            : (deletedMeanwhile(err) ?? undefined);',
    to: '            : undefined;',
    tests: TESTS,
    project: 'postgres',
  },
  {
    name: 'races: a re-rating request asks for an open one before it locks the streamer (two open, a 500)',
    file: 'src/reviews/request.ts',
    from: "      const name = await lockStreamer(trx, streamerId);\n      if (await openRequest(trx, streamerId)) throw fail('request_open');\n",
    to: "      if (await openRequest(trx, streamerId)) throw fail('request_open');\n      const name = await lockStreamer(trx, streamerId);\n",
    tests: TESTS,
    project: 'postgres',
  },
];
