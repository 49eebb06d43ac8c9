import type { Mutation } from './list.ts';

/**
 * DECISIONS.md "Errors": 401/403 before 400. The operations whose caller rule depends on a row
 * ask for its id after the caller (test/error-order.test.ts).
 */
const TESTS = ['test/error-order.test.ts'];

export const ERROR_ORDER_MUTATIONS: Mutation[] = [
  {
    name: 'order: a review without streamer_id answers 400 before asking who reviews',
    file: 'src/reviews/routes.ts',
    from: "        callerOfReviews(request.viewer, 'review');\n",
    to: '',
    tests: TESTS,
  },
  {
    name: 'order: publishing without streamer_id answers 400 before asking for the administrator',
    file: 'src/reviews/routes.ts',
    from: '        if (flag(publish) || flag(rerating))\n',
    to: '        if (flag(rerating))\n',
    tests: TESTS,
  },
  {
    name: 'order: a re-rating request with a malformed body answers 400 to anonymous',
    file: 'src/reviews/routes.ts',
    from: "  if (operation === 'request') requesterOf(viewer);\n",
    to: "  if (operation === 'request') return;\n",
    tests: TESTS,
  },
  {
    name: 'order: a reply with a malformed body answers 400 to anonymous',
    file: 'src/streamers/routes.ts',
    from: '        if (flag(query.reply)) replierOf(viewer);\n        else if',
    to: '        if (flag(query.reply)) void viewer;\n        else if',
    tests: TESTS,
  },
  {
    name: 'order: a schedule with a malformed body answers 400 to anonymous',
    file: 'src/streamers/routes.ts',
    from: '        else if (flag(query.schedule)) assertScheduleKeeper(viewer);\n',
    to: '',
    tests: TESTS,
  },
  {
    name: "order: mine=1 without streamer_id answers 400 to a visitor who isn't signed in",
    file: 'src/comments/routes.ts',
    from: '      if (flag(query.mine)) {\n',
    to: "      if (flag(query.mine)) {\n        givenId(parseId(query.streamer_id), 'missing_streamer_id');\n",
    tests: TESTS,
  },
  {
    name: "order: someone else's comment edited with a short body answers 400 before 403 Not your comment",
    file: 'src/comments/change.ts',
    from: '    // DECISIONS.md "Errors": who may (403) before what the body says (400) before the row (404).\n',
    to: '    if (input.body !== undefined) commentBody(input.body);\n',
    tests: TESTS,
  },
  {
    name: 'order: a pin with no body by one who may not pin answers 400 before 403 Not allowed',
    file: 'src/comments/pin.ts',
    from: '  const pinned = truthy(input);\n',
    to: "  if (input === undefined) throw fail('nothing_to_update');\n  const pinned = truthy(input);\n",
    tests: TESTS,
  },
  {
    name: "order: a rater adding to another's team without a login answers 400 before 403 Owner only",
    file: 'src/groups/members.ts',
    from: "  if (groupId === null) throw fail('missing_group_or_login');",
    to: "  if (groupId === null || login === '') throw fail('missing_group_or_login');",
    tests: TESTS,
  },
  {
    name: "order: a moderator's role grant with a bad id answers 400 before 403 Admin only",
    file: 'src/users/change.ts',
    from: '  const { banned: ban, is_mod, is_admin, timeout_hours } = change;\n',
    to: "  const { banned: ban, is_mod, is_admin, timeout_hours } = change;\n  if (given === null) throw fail('missing_id');\n",
    tests: TESTS,
  },
  {
    name: "order: a moderator's lock is refused only after its body is read (400 Invalid JSON before 403)",
    file: 'src/streamers/routes.ts',
    from: "        if (flag(query.lock) && !mayLock(viewer)) throw fail('admin_only');\n",
    to: '',
    tests: TESTS,
  },
  {
    name: "order: a guest's comment reads its body before auth_enabled's 401",
    file: 'src/comments/routes.ts',
    from: "          if (await authRequiredToComment(db)) throw fail('sign_in_required');\n",
    to: '',
    tests: TESTS,
  },
  {
    name: "order: a banned session's guest comment reads its body before 403 banned",
    file: 'src/comments/routes.ts',
    from: "          if (viewer.bannedUser || viewer.bannedSession) throw fail('banned');\n",
    to: '',
    tests: TESTS,
  },
  {
    name: 'order: a pin with a malformed body answers 400 to anonymous',
    file: 'src/comments/routes.ts',
    from: '        if (flag(request.query.pin) && !flag(request.query.like)) assertPinner(request.viewer);\n',
    to: '',
    tests: TESTS,
  },
  {
    name: "order: a route's caller is not asked first when its body is refused as malformed (400)",
    file: 'src/plugins/errors.ts',
    from: 'const INPUT_REFUSALS = new Set([400, 413, 415, 429]);',
    to: 'const INPUT_REFUSALS = new Set([413, 415, 429]);',
    tests: TESTS,
  },
];
