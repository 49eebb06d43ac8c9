import type { Mutation } from './list.ts';

/** Issue 27: notifications, live updates and feeds. */
export const NOTIFICATION_MUTATIONS: Mutation[] = [
  {
    name: 'notifications: one is notified of their own action',
    file: 'src/notifications/queries.ts',
    from: 'const kept = rows.filter((r) => !own(r));',
    to: 'const kept = rows;',
    tests: ['test/notifications.test.ts'],
  },
  {
    name: 'notifications: the same kind, comment and recipient twice (no unique index)',
    file: 'src/db/migrations/016-notifications.ts',
    from: "    .columns(['kind', 'comment_id', 'user_id'])\n    .unique()\n",
    to: "    .columns(['kind', 'comment_id', 'user_id'])\n",
    tests: ['test/notifications.test.ts'],
  },
  {
    name: 'notifications: a hidden comment still notifies',
    file: 'src/notifications/queries.ts',
    from: "        .where('c.hidden', '=', 0),",
    to: '',
    tests: ['test/notifications.test.ts'],
  },
  {
    name: "notifications: PostgreSQL's grouped insert mentions everyone named",
    file: 'src/comments/batch.ts',
    from: 'order by t.k, u.id limit ${sql.lit(NOTIFICATION_LIMITS.mentions)}',
    to: 'order by t.k, u.id',
    tests: ['test/notifications.test.ts'],
    project: 'postgres',
  },
  {
    name: 'events: a comment event carries the comment text',
    file: 'src/notifications/notify.ts',
    from: "{ type: 'comment', id: c.id, streamer_id: c.streamer_id },",
    to: "{ type: 'comment', id: c.id, streamer_id: c.streamer_id, body: c.body } as LiveEvent,",
    tests: ['test/events.test.ts'],
  },
  {
    name: 'events: no limit of open streams per client address',
    file: 'src/events/streams.ts',
    from: 'return (this.#perAddress.get(address) ?? 0) < this.limits.perAddress;',
    to: 'return address !== null;',
    tests: ['test/events.test.ts'],
  },
  {
    name: 'events: a reader that stops reading is kept however far behind',
    file: 'src/events/streams.ts',
    from: 'if (res.writableLength > this.limits.maxBuffered) {',
    to: 'if (res.writableLength < 0) {',
    tests: ['test/events.test.ts'],
  },
  {
    name: 'feeds: a comment body written into the feed as HTML',
    file: 'src/feeds/atom.ts',
    from: "content: escapeHtml(e.text).replace(/\\n/g, '<br>')",
    to: 'content: e.text',
    tests: ['test/feeds.test.ts'],
  },
  {
    name: 'feeds: a rating saved with the same total is an event',
    file: 'src/feeds/queries.ts',
    from: "eb('h.before', '<>', eb.ref('h.sum'))",
    to: "eb('h.before', 'is not', null)",
    tests: ['test/feeds.test.ts'],
  },
  {
    name: 'notifications: the streamer is not told of a new total (rated)',
    file: 'src/streamers/rate.ts',
    from: '      await notifyRated(app.database, trx, id, request.viewer.user?.id ?? null, rating.updated_at);\n',
    to: '',
    tests: ['test/streamer-voice.test.ts'],
  },
  {
    name: 'notifications: a held comment notifies before it is approved',
    file: 'src/comments/post.ts',
    from: 'if (comment.pending !== 1) await notifyComment(',
    to: 'await notifyComment(',
    tests: ['test/guest-trust.test.ts'],
  },
];
