import type { Mutation } from './list.ts';

/** Issue 30, items 7, 9, 11, 16, 17, 18, 22 (branch f30a): each rule broken on purpose. */
export const ISSUE_30_F30A: Mutation[] = [
  {
    name: 'paging: a limit over the bound is let through',
    file: 'src/lib/schemas.ts',
    from: "pattern: `^0*(?:${Array.from({ length: max }, (_, i) => i + 1).join('|')})$`,",
    to: "pattern: '^[0-9]+$',",
    tests: ['test/paging-limits.test.ts'],
  },
  {
    name: "team: a removed member's community rating stays in the averages",
    file: 'src/groups/member-queries.ts',
    from: "    .where('group_id', '=', member.group_id)\n    .where('user_id', '=', member.user_id)\n    .execute();",
    to: "    .where('group_id', '=', -1)\n    .execute();",
    tests: ['test/team-ratings.test.ts'],
  },
  {
    name: "staff: the password administrator's comment is by the guest's default name",
    file: 'src/comments/rules.ts',
    from: 'given || (viewer.isAdmin ? STAFF_AUTHOR : DEFAULT_AUTHOR)',
    to: 'given || DEFAULT_AUTHOR',
    tests: ['test/staff-comments.test.ts'],
  },
  {
    name: "the change: the administrator's given name is replaced by the staff label",
    file: 'src/comments/rules.ts',
    from: '    : given || (viewer.isAdmin',
    to: '    : viewer.isAdmin ? STAFF_AUTHOR : given || (viewer.isAdmin',
    tests: ['test/staff-comments.test.ts'],
  },
  {
    name: "the change: migration 032 leaves the administrator's old comments by the guests' name",
    file: 'src/db/migrations/032-staff-author-stored.ts',
    from: ".where('author', '=', DEFAULT_AUTHOR)",
    to: ".where('author', '=', STAFF_AUTHOR)",
    tests: ['test/staff-comments.test.ts'],
  },
  {
    name: "moderation: a guest's address count is one comment",
    file: 'src/moderation/queries.ts',
    from: 'reach.set(tag, Number(row?.n ?? 0));',
    to: 'reach.set(tag, row ? 1 : 0);',
    tests: ['test/moderation-address.test.ts'],
  },
  {
    name: 'export: a table dropped from the export (votes)',
    file: 'src/cli/data-tables.ts',
    from: "  'comment_likes',\n  'votes',\n  'rating_history',\n  'notifications',\n  'streamer_replies',\n  'streams',\n  'stream_samples',\n  'stream_stats',\n  // The fifth wave",
    to: "  'comment_likes',\n  'rating_history',\n  'notifications',\n  'streamer_replies',\n  'streams',\n  'stream_samples',\n  'stream_stats',\n  // The fifth wave",
    tests: ['test/export-tables.test.ts'],
  },
];
