import type { Mutation } from './list.ts';

/**
 * DECISIONS.md "Errors": 401/403 before 400. The operations whose caller rule depends on a row
 * ask for its id after the caller (test/error-order.test.ts).
 */
const TESTS = ['test/error-order.test.ts'];

export const ERROR_ORDER_MUTATIONS: Mutation[] = [
  {
    name: 'order: a review without streamer_id answers 400 before asking who reviews',
    file: 'src/reviews/review.ts',
    from: "  assertStaffWriter(viewer, mayReview);\n  const streamerId = givenId(id, 'missing_streamer_id');\n",
    to: "  const streamerId = givenId(id, 'missing_streamer_id');\n  assertStaffWriter(viewer, mayReview);\n",
    tests: TESTS,
  },
  {
    name: 'order: publishing without streamer_id answers 400 before asking for the administrator',
    file: 'src/reviews/publish.ts',
    from: "  assertStaffWriter(request.viewer, mayPublish);\n  const streamerId = givenId(id, 'missing_streamer_id');\n",
    to: "  const streamerId = givenId(id, 'missing_streamer_id');\n  assertStaffWriter(request.viewer, mayPublish);\n",
    tests: TESTS,
  },
  {
    name: 'order: a re-rating request without streamer_id answers 400 to anonymous',
    file: 'src/reviews/request.ts',
    from: "  if (viewer.bannedUser) throw fail('banned');\n  const user = viewer.user;\n",
    to: "  if (viewer.bannedUser) throw fail('banned');\n  givenId(id, 'missing_streamer_id');\n  const user = viewer.user;\n",
    tests: TESTS,
  },
  {
    name: 'order: a reply without id answers 400 to anonymous',
    file: 'src/streamers/reply.ts',
    from: "  if (viewer.bannedUser) throw fail('banned');\n  if (!viewer.user && !viewer.isAdmin) throw fail('not_logged_in');\n  // The shared",
    to: "  if (viewer.bannedUser) throw fail('banned');\n  givenId(given);\n  if (!viewer.user && !viewer.isAdmin) throw fail('not_logged_in');\n  // The shared",
    tests: TESTS,
  },
  {
    name: 'order: a schedule without id answers 400 to anonymous',
    file: 'src/schedules/keep.ts',
    from: "  if (viewer.bannedUser) throw fail('banned');\n  if (!viewer.user && !viewer.isAdmin) throw fail('not_logged_in');\n",
    to: "  if (viewer.bannedUser) throw fail('banned');\n  givenId(given);\n  if (!viewer.user && !viewer.isAdmin) throw fail('not_logged_in');\n",
    tests: TESTS,
  },
  {
    name: "order: mine=1 without streamer_id answers 400 to a visitor who isn't signed in",
    file: 'src/comments/routes.ts',
    from: '      if (flag(query.mine)) {\n',
    to: "      if (flag(query.mine)) {\n        givenId(parseId(query.streamer_id), 'missing_streamer_id');\n",
    tests: TESTS,
  },
];
