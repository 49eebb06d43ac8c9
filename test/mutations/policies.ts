import type { Mutation } from './list.ts';

/**
 * Issue 40, "Policies the server calls": a policy the page asks, broken, is noticed by the
 * service's tests (the service calls the same function); a server that stops calling one is
 * noticed by test/policies.test.ts; the Public view is one condition, which every user of it follows.
 */
export const POLICY_MUTATIONS: Mutation[] = [
  {
    name: 'a timed-out team owner adds raters',
    file: 'src/groups/routes.ts',
    from: 'idempotencyKey: true, contribution: true }, schema: ownerAddSchema },',
    to: 'idempotencyKey: true }, schema: ownerAddSchema },',
    tests: ['test/taking-part.test.ts'],
  },
  {
    name: 'a timed-out team owner removes raters',
    file: 'src/groups/routes.ts',
    from: 'contribution: true }, schema: ownerRemoveSchema },',
    to: '}, schema: ownerRemoveSchema },',
    tests: ['test/taking-part.test.ts'],
  },
  {
    name: 'policies: a moderator may grant roles',
    file: 'src/users/policy.ts',
    from: "export const mayGrantRoles = (who: Who): boolean => allows('admin', who);",
    to: "export const mayGrantRoles = (who: Who): boolean => allows('adminOrModerator', who);",
    tests: ['test/moderators-tools.test.ts'],
  },
  {
    name: 'policies: a moderator may restrict staff',
    file: 'src/users/policy.ts',
    from: "(allows('adminOrModerator', who) && !target.is_mod && !target.is_admin)",
    to: "allows('adminOrModerator', who)",
    tests: ['test/moderators-tools.test.ts'],
  },
  {
    name: "policies: a signed-in author's address blocked",
    file: 'src/moderation/policy.ts',
    from: 'mayModerate(who) && comment.user_id === null;',
    to: 'mayModerate(who);',
    tests: ['test/guests.test.ts'],
  },
  {
    name: 'policies: community ratings taken while locked',
    file: 'src/community/policy.ts',
    from: '&& facts.member && !facts.locked;',
    to: '&& facts.member;',
    tests: ['test/community.test.ts'],
  },
  {
    name: "policies: a team's rater manages its raters",
    file: 'src/groups/policy.ts',
    from: "&& team.role === 'owner';",
    to: '&& team.role !== null;',
    tests: ['test/taking-part.test.ts'],
  },
  {
    name: 'policies: a reply to a streamer one does not speak for',
    file: 'src/streamers/policy.ts',
    from: '!isStaff(who) && who.user !== null && speaksFor.includes(streamerId);',
    to: '!isStaff(who) && who.user !== null;',
    tests: ['test/streamer-voice.test.ts'],
  },
  {
    name: 'policies: an edit after the edit window',
    file: 'src/comments/policy.ts',
    from: 'isOwn(who, c) && editWindowOpen(c, now);',
    to: 'isOwn(who, c);',
    tests: ['test/comment-moderation.test.ts'],
  },
  {
    name: "policies: the users' changes are the administrator's alone (the guard calls the page's mayManageUsers)",
    file: 'src/users/policy.ts',
    from: 'export const mayManageUsers = rolePolicy(USER_ROLES.change);',
    to: "export const mayManageUsers = rolePolicy('admin');",
    tests: ['test/moderators-tools.test.ts'],
  },
  {
    name: 'policies: a route guarded by a policy lets everyone in (its guard does not call it)',
    file: 'src/plugins/guards.ts',
    from: 'isRolePolicy(choice) ? choice(request.viewer) :',
    to: 'isRolePolicy(choice) ? true :',
    tests: ['test/route-guards.test.ts'],
  },
  {
    name: 'policies: the service stops calling mayRateCommunity (the rule restated inline)',
    file: 'src/community/rate.ts',
    from: "if (!mayRateCommunity(viewer, { member, locked })) throw fail('community_locked');",
    to: "if (locked) throw fail('community_locked');",
    tests: ['test/policies.test.ts'],
  },
  {
    name: 'policies: the service stops calling mayGrantRoles (the rule restated inline)',
    file: 'src/users/change.ts',
    from: '!mayGrantRoles(viewer) &&',
    to: '!viewer.isAdmin &&',
    tests: ['test/policies.test.ts'],
  },
  {
    name: 'public view: streamers not evaluated are in it',
    file: 'src/catalogue/public-view.ts',
    from: '(streamers.evaluated = 1 and exists',
    to: '(streamers.evaluated >= 0 and exists',
    tests: [
      'test/streamers.test.ts',
      'test/streamers-views.test.ts',
      'test/streamer-voice.test.ts',
      'test/feeds.test.ts',
    ],
  },
  {
    name: "public view: a streamer's reply written outside it",
    file: 'src/streamers/reply.ts',
    from: 'ratingAt === null || !(await streamerInPublicView(trx, id))',
    to: 'ratingAt === null',
    tests: ['test/streamer-voice.test.ts'],
  },
  {
    name: 'public view: the rating feed keeps the events of streamers that left it',
    file: 'src/feeds/queries.ts',
    from: '    .where(IN_PUBLIC_VIEW)\n',
    to: '',
    tests: ['test/feeds.test.ts'],
  },
  {
    name: 'public view: the list filters on a column PostgreSQL answers as a boolean, read as 1',
    file: 'src/catalogue/public-view.ts',
    from: 'Boolean(row.in_public_view)',
    to: 'row.in_public_view === 1',
    tests: ['test/streamers-views.test.ts'],
    project: 'postgres',
  },
  // The house's layout (test/layers.test.ts): no module imports itself through others.
  {
    name: 'layout: a command imports the table of commands again (an import circle)',
    file: 'src/cli/commands/serve.ts',
    from: "import { type CommandArgs, UsageError } from '../args.ts';",
    to: "import { type CommandArgs, UsageError } from '../args.ts';\nimport type { Command } from '../command.ts';\nexport type Table = Command;",
    tests: ['test/layers.test.ts'],
  },
  {
    name: "layout: the content version names the database's context, which holds it (a type's import circle)",
    file: 'src/db/changes.ts',
    from: "import { randomBytes } from 'node:crypto';",
    to: "import { randomBytes } from 'node:crypto';\nimport type { DbContext } from './context.ts';\nexport type Held = DbContext['changes'];",
    tests: ['test/layers.test.ts'],
  },
  {
    name: "layout: the event log's writing side names a row as the reading side holds it (db/ and events/ import each other)",
    file: 'src/db/event-log.ts',
    from: "import type { Db } from './schema.ts';",
    to: "import type { Db } from './schema.ts';\nimport type { LoggedEvent } from '../events/log.ts';\nexport type Row = LoggedEvent;",
    tests: ['test/layers.test.ts'],
  },
  {
    name: "layout (stop 96): a route ends its user's sessions itself, a write outside the operations",
    file: 'src/sign-out/routes.ts',
    from: '      const count = await endOwnSessions(app.ctx, viewer.user.id);\n',
    to: "      const userId = viewer.user.id;\n      const count = await app.db\n        .deleteFrom('sessions')\n        .where('user_id', '=', userId)\n        .executeTakeFirst()\n        .then((r) => Number(r.numDeletedRows));\n",
    tests: ['test/layers.test.ts'],
  },
];
