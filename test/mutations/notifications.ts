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
];
