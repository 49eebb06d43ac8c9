import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { badRequest, DomainError, notFound } from '../errors.ts';
import { cleanText, codePointLength, cut, parseId, stripControls, text } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { errors, Field, Nullable, Ok, Param } from '../lib/schemas.ts';
import { authRequiredToComment } from '../settings/queries.ts';
import { streamerExists } from '../streamers/queries.ts';
import { record } from '../audit/queries.ts';
import { writeTransaction } from '../db/transaction.ts';
import { deleteComment, findComment, insertComment, listComments } from './queries.ts';

const CommentItem = Type.Object({
  id: Type.Integer(),
  author: Type.String(),
  body: Type.String(),
  is_admin: Type.Boolean(),
  created_at: Type.String(),
  user_id: Nullable(Type.Integer()),
  user_display: Nullable(Type.String()),
  user_avatar: Nullable(Type.String()),
  user_provider: Nullable(Type.String()),
  team_ids: Type.Array(Type.Integer()),
});

const Posted = Type.Object({
  id: Type.Integer(),
  author: Type.String(),
  body: Type.String(),
  is_admin: Type.Boolean(),
  created_at: Type.String(),
  user_display: Type.Optional(Type.String()),
  user_avatar: Type.Optional(Type.String()),
  user_provider: Type.Optional(Type.String()),
});

const ListQuery = Type.Object({ streamer_id: Param() });
const PostBody = Type.Object({
  streamer_id: Type.Optional(Field(64)),
  body: Type.Optional(Field(20_000)),
  author: Type.Optional(Field(20_000)),
});
const IdQuery = Type.Object({ id: Param() });

const TOO_SHORT = 'Komentář je příliš krátký';
const TOO_LONG = 'Komentář je příliš dlouhý (max 1000 znaků)';

export async function commentRoutes(app: FastifyInstance) {
  const { db } = app;

  app.get(
    '/api/comments',
    {
      config: { guard: 'public', inputErrors: { '*': 'Missing streamer_id' } },
      schema: {
        querystring: ListQuery,
        response: { 200: Type.Array(CommentItem), ...errors(400, 404) },
      },
    },
    async (request) => {
      const streamerId = parseId((request.query as Static<typeof ListQuery>).streamer_id);
      if (streamerId === null) throw badRequest('Missing streamer_id');
      if (!(await streamerExists(db, streamerId))) throw notFound('Streamer not found');
      return listComments(db, streamerId);
    },
  );

  app.post(
    '/api/comments',
    {
      config: {
        guard: 'public',
        inputErrors: { '*': 'Missing streamer_id', body: TOO_LONG },
      },
      schema: { body: PostBody, response: { 201: Posted, ...errors(400, 401, 404, 429) } },
    },
    async (request, reply) => {
      const { viewer } = request;
      if (!viewer.user && !viewer.isAdmin && (await authRequiredToComment(db))) {
        throw new DomainError(401, 'Pro komentování je vyžadováno přihlášení');
      }
      app.rateLimit.hit(request, 'comment');
      const input = (request.body ?? {}) as Static<typeof PostBody>;
      const streamerId = parseId(input.streamer_id);
      if (streamerId === null) throw badRequest('Missing streamer_id');
      const body = cleanText(input.body) ?? '';
      const length = codePointLength(body);
      if (length < 2) throw badRequest(TOO_SHORT);
      if (length > 1000) throw badRequest(TOO_LONG);
      if (!(await streamerExists(db, streamerId))) throw notFound('Streamer not found');

      const user = viewer.user;
      const author = user
        ? user.display_name
        : cut(stripControls(text(input.author) ?? '').trim(), 50) || 'Anonym';
      const comment = {
        streamer_id: streamerId,
        user_id: user?.id ?? null,
        author,
        body,
        is_admin: viewer.isAdmin ? 1 : 0,
        created_at: app.clock.now().toISOString(),
      };
      const id = await insertComment(db, comment);
      return reply.code(201).send({
        id,
        author,
        body,
        is_admin: viewer.isAdmin,
        created_at: comment.created_at,
        ...(user
          ? { user_display: user.display_name, user_avatar: user.avatar, user_provider: user.provider }
          : {}),
      });
    },
  );

  app.delete(
    '/api/comments',
    {
      config: { guard: 'admin', inputErrors: { '*': 'Missing id' } },
      schema: { querystring: IdQuery, response: { 200: Ok, ...errors(400, 401, 404) } },
    },
    async (request) => {
      const id = parseId((request.query as Static<typeof IdQuery>).id);
      if (id === null) throw badRequest('Missing id');
      await writeTransaction(db, async (trx) => {
        const comment = await findComment(trx, id);
        if (!comment || !(await deleteComment(trx, id))) throw notFound('Comment not found');
        await record(trx, request, {
          action: 'comment.delete',
          target_id: id,
          summary: `Deleted a comment by ${comment.author} on streamer #${comment.streamer_id}`,
          details: { old: comment },
        });
      });
      return { ok: true };
    },
  );

  methodNotAllowed(app, '/api/comments', ['GET', 'POST', 'DELETE']);
}
