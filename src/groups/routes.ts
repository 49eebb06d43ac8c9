import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { isUniqueViolation } from '../db/dialect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { badRequest, conflict, DomainError, notFound } from '../errors.ts';
import { cut, flag, parseId, stripControls, text } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { errors, Field, Nullable, Ok, Param } from '../lib/schemas.ts';
import { record } from '../audit/queries.ts';
import { streamerExists } from '../streamers/queries.ts';
import {
  allGroups,
  deleteGroup,
  deleteMember,
  findActiveUserByLogin,
  findGroup,
  findMember,
  groupNameTaken,
  insertGroup,
  myGroups,
  streamerHasTeam,
  updateGroup,
  upsertMember,
} from './queries.ts';

const MyGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  streamer_id: Nullable(Type.Integer()),
});
const Group = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  streamer_id: Nullable(Type.Integer()),
  created_at: Type.String(),
});
const Member = Type.Object({
  member_id: Type.Integer(),
  role: Type.String(),
  id: Type.Integer(),
  provider: Type.String(),
  login: Type.String(),
  display_name: Type.String(),
  avatar: Type.String(),
});
const AdminGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  streamer_id: Nullable(Type.Integer()),
  created_at: Type.String(),
  streamer_name: Nullable(Type.String()),
  members: Type.Array(Member),
  ratings_count: Type.Integer(),
});

const Query = Type.Object({ my: Param(), members: Param(), id: Param(), member: Param() });
type Query = Static<typeof Query>;
const GroupBody = Type.Object({
  name: Type.Optional(Field(1000)),
  streamer_id: Type.Optional(Field(64)),
  group_id: Type.Optional(Field(64)),
  login: Type.Optional(Field(1000)),
  provider: Type.Optional(Field(100)),
  role: Type.Optional(Field(100)),
});
type GroupBody = Static<typeof GroupBody>;
const MemberAdded = Type.Object({ ok: Type.Boolean(), display_name: Type.String(), role: Type.String() });

/** Group names: trimmed, controls removed, at most 100 characters (like streamer names). */
const groupName = (value: unknown) => cut(stripControls(text(value) ?? '').trim(), 100);

const query = (request: FastifyRequest) => request.query as Query;

export async function groupRoutes(app: FastifyInstance) {
  const { db } = app;

  /** A streamer to link: falsy stores null; otherwise it must exist (404). */
  async function linkTarget(value: unknown): Promise<number | null> {
    const id = parseId(value);
    if (id === null) return null;
    if (!(await streamerExists(db, id))) throw notFound('Streamer not found');
    return id;
  }

  /** SPEC.md's conflicts, checked up front; the unique indexes catch a race. */
  async function checkConflicts(
    name: string | undefined,
    streamerId: number | null | undefined,
    exceptId?: number,
  ) {
    if (name !== undefined && (await groupNameTaken(db, name, exceptId))) {
      throw conflict('Group name already exists');
    }
    if (streamerId && (await streamerHasTeam(db, streamerId, exceptId))) {
      throw conflict('This streamer already has a team');
    }
  }

  async function asDbError<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof DomainError) throw err;
      if (isUniqueViolation(err)) {
        throw conflict(
          /streamer_id/.test(String(err)) ? 'This streamer already has a team' : 'Group name already exists',
        );
      }
      // DECISIONS.md: the detail goes to the log, the client gets `DB error`.
      request.log.error({ err }, 'group write failed');
      throw new DomainError(500, 'DB error');
    }
  }

  app.get(
    '/api/rater_groups',
    {
      config: { guard: (request) => (flag(query(request).my) ? 'signedIn' : 'admin') },
      schema: {
        querystring: Query,
        response: { 200: Type.Union([Type.Array(AdminGroup), Type.Array(MyGroup)]), ...errors(401) },
      },
    },
    async (request) => {
      if (flag(query(request).my)) return myGroups(db, request.viewer.user!.id);
      return allGroups(db);
    },
  );

  app.post(
    '/api/rater_groups',
    {
      config: {
        guard: 'admin',
        inputErrors: { '*': 'Missing name' },
      },
      schema: {
        querystring: Query,
        body: GroupBody,
        response: { 200: MemberAdded, 201: Group, ...errors(400, 401, 404, 409, 500) },
      },
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as GroupBody;
      if (flag(query(request).members)) return addMember(request, body);

      const name = groupName(body.name);
      if (name === '') throw badRequest('Missing name');
      const streamerId = await linkTarget(body.streamer_id);
      await checkConflicts(name, streamerId);
      const group = await asDbError(request, () =>
        writeTransaction(db, async (trx) => {
          const group = await insertGroup(trx, {
            name,
            streamer_id: streamerId,
            created_at: app.clock.now().toISOString(),
          });
          await record(trx, request, {
            action: 'team.create',
            target_id: group.id,
            summary: `Created team ${name}`,
            details: { new: group },
          });
          return group;
        }),
      );
      return reply.code(201).send(group);
    },
  );

  async function addMember(request: FastifyRequest, body: GroupBody) {
    const groupId = parseId(body.group_id);
    const login = (text(body.login) ?? '').trim().toLowerCase();
    if (groupId === null || login === '') throw badRequest('Missing group_id or login');
    const provider = body.provider === 'provider_b' ? 'provider_b' : 'provider_a';
    const role = body.role === 'owner' ? 'owner' : 'rater';
    const group = await findGroup(db, groupId);
    if (!group) throw notFound('Group not found');
    const user = await findActiveUserByLogin(db, provider, login);
    if (!user) {
      throw notFound(`User '${login}' on ${provider} has not logged in yet or is banned.`);
    }
    await writeTransaction(db, async (trx) => {
      await upsertMember(trx, {
        group_id: groupId,
        user_id: user.id,
        role,
        added_at: app.clock.now().toISOString(),
      });
      await record(trx, request, {
        action: 'member.add',
        target_id: groupId,
        summary: `Added ${login} (${provider}) to team ${group.name} as ${role}`,
      });
    });
    return { ok: true, display_name: user.display_name, role };
  }

  app.put(
    '/api/rater_groups',
    {
      config: { guard: 'admin', inputErrors: { '*': 'Missing id' } },
      schema: {
        querystring: Query,
        body: GroupBody,
        response: { 200: Ok, ...errors(400, 401, 404, 409, 500) },
      },
    },
    async (request) => {
      const id = parseId(query(request).id);
      if (id === null) throw badRequest('Missing id');
      const body = (request.body ?? {}) as GroupBody;
      const changes: { name?: string; streamer_id?: number | null } = {};
      if ('name' in body) {
        changes.name = groupName(body.name);
        if (changes.name === '') throw badRequest('Name cannot be empty');
      }
      if (!('name' in body) && !('streamer_id' in body)) throw badRequest('Nothing to update');
      const before = await findGroup(db, id);
      if (!before) throw notFound('Group not found');
      if ('streamer_id' in body) changes.streamer_id = await linkTarget(body.streamer_id);
      await checkConflicts(changes.name, changes.streamer_id, id);
      await asDbError(request, () =>
        writeTransaction(db, async (trx) => {
          await updateGroup(trx, id, changes);
          await record(trx, request, {
            action: 'team.update',
            target_id: id,
            summary: `Updated team ${before.name}`,
            details: { old: before, new: { ...before, ...changes } },
          });
        }),
      );
      return { ok: true };
    },
  );

  app.delete(
    '/api/rater_groups',
    {
      config: { guard: 'admin', inputErrors: { '*': 'Missing id' } },
      schema: { querystring: Query, response: { 200: Ok, ...errors(400, 401, 404) } },
    },
    async (request) => {
      const q = query(request);
      if (q.member !== undefined) {
        const memberId = parseId(q.member);
        if (memberId === null) throw badRequest('Missing member id');
        await writeTransaction(db, async (trx) => {
          const member = await findMember(trx, memberId);
          if (!member || !(await deleteMember(trx, memberId))) throw notFound('Member not found');
          await record(trx, request, {
            action: 'member.remove',
            target_id: member.group_id,
            summary: `Removed ${member.login} (${member.provider}) from team ${member.group_name}`,
          });
        });
        return { ok: true };
      }
      const id = parseId(q.id);
      if (id === null) throw badRequest('Missing id');
      await writeTransaction(db, async (trx) => {
        const before = await findGroup(trx, id);
        if (!before || !(await deleteGroup(trx, id))) throw notFound('Group not found');
        await record(trx, request, {
          action: 'team.delete',
          target_id: id,
          summary: `Deleted team ${before.name}`,
          details: { old: before },
        });
      });
      return { ok: true };
    },
  );

  methodNotAllowed(app, '/api/rater_groups', ['GET', 'POST', 'PUT', 'DELETE']);
}
