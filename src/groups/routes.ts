import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../audit/queries.ts';
import { fail } from '../errors.ts';
import { keepAnswer } from '../idempotency/keep.ts';
import { flag, parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { addMember, removeMember } from './members.ts';
import { roleIn } from './member-queries.ts';
import { allGroups, myGroups, teamMembers } from './queries.ts';
import {
  deleteSchema,
  listSchema,
  ownerAddSchema,
  ownerListSchema,
  ownerRemoveSchema,
  postSchema,
  putSchema,
} from './schemas.ts';
import { createTeam, deleteTeam, type TeamContext, updateTeam } from './teams.ts';
import { mayManageTeams, TEAM_ROLES } from './policy.ts';

/**
 * /api/rater_groups: SPEC.md puts teams and their members behind one path, told apart by
 * the query (`my`, `members`, `member`). This file only decides which operation a request
 * is; teams.ts and members.ts do them.
 */
export const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, clock } = app;
  const context = (request: FastifyRequest): TeamContext => ({
    database,
    db,
    actor: actorOf(request.viewer, clock.now()),
    log: request.log,
  });

  app.get(
    '/api/rater_groups',
    {
      config: { guard: (query) => (flag(query.my) ? TEAM_ROLES.mine : mayManageTeams) },
      schema: listSchema,
    },
    async (request) => {
      const { user } = request.viewer;
      if (flag(request.query.my) && user) return myGroups(db, user.id);
      return allGroups(db);
    },
  );

  app.post(
    '/api/rater_groups',
    { config: { guard: mayManageTeams, idempotencyKey: true }, schema: postSchema },
    async (request, reply) => {
      if (flag(request.query.members)) {
        return addMember(context(request), request.body, keepAnswer(request, reply, 200));
      }
      const team = await createTeam(context(request), request.body, keepAnswer(request, reply, 201));
      return reply.code(201).send(team);
    },
  );

  app.put('/api/rater_groups', { config: { guard: mayManageTeams }, schema: putSchema }, async (request) => {
    const id = parseId(request.query.id);
    if (id === null) throw fail('missing_id');
    await updateTeam(context(request), id, request.body);
    return OK;
  });

  app.delete(
    '/api/rater_groups',
    { config: { guard: mayManageTeams }, schema: deleteSchema },
    async (request) => {
      const { query } = request;
      if (query.member !== undefined) {
        await removeMember(context(request), query.member);
        return OK;
      }
      const id = parseId(query.id);
      if (id === null) throw fail('missing_id');
      await deleteTeam(context(request), id);
      return OK;
    },
  );

  methodNotAllowed(app, '/api/rater_groups', ['GET', 'POST', 'PUT', 'DELETE']);
};

/** DECISIONS.md "Taking part": a team owner manages the raters of their own team. */
export const teamMemberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, clock } = app;
  const owner = (request: FastifyRequest) => {
    const { user } = request.viewer;
    if (!user) throw fail('not_logged_in');
    return { who: request.viewer, userId: user.id };
  };
  const context = (request: FastifyRequest): TeamContext => ({
    database,
    db,
    actor: actorOf(request.viewer, clock.now()),
    log: request.log,
  });

  app.get(
    '/api/team_members',
    { config: { guard: TEAM_ROLES.owner }, schema: ownerListSchema },
    async (request) => {
      const { userId } = owner(request);
      const groupId = parseId(request.query.group_id);
      if (groupId === null) throw fail('missing_group_id');
      // Only the team's own members see who is in it (an unknown team: nobody's).
      if ((await roleIn(db, groupId, userId)) === null) throw fail('not_a_member');
      return teamMembers(db, groupId);
    },
  );

  app.post(
    '/api/team_members',
    // A timed-out owner changes no team (docs/decisions.md "Moderators"): 403 `timed_out`.
    { config: { guard: TEAM_ROLES.owner, idempotencyKey: true, contribution: true }, schema: ownerAddSchema },
    async (request, reply) =>
      addMember(context(request), request.body, keepAnswer(request, reply, 200), owner(request)),
  );

  app.delete(
    '/api/team_members',
    { config: { guard: TEAM_ROLES.owner, contribution: true }, schema: ownerRemoveSchema },
    async (request) => {
      await removeMember(context(request), request.query.id, owner(request));
      return OK;
    },
  );

  methodNotAllowed(app, '/api/team_members', ['GET', 'POST', 'DELETE']);
};
