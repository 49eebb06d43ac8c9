import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendAnswer } from '../cache/sender.ts';
import { fail, givenId } from '../errors.ts';
import { keepAnswer } from '../idempotency/keep.ts';
import { flag, parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { limit } from '../plugins/rate-limits.ts';
import { isStaff } from '../shared/roles.ts';
import { changeComment, likeComment, removeComment } from './change.ts';
import { commentList } from './list.ts';
import { mineOf, removeGuestComment } from './own.ts';
import { ownCookie } from './own-cookie.ts';
import { assertPinner, pinComment } from './pin.ts';
import { COMMENT_ROLES, commentsAsGuest, mayDelete, mayDeleteComment } from './policy.ts';
import { postComment } from './post.ts';
import { authRequiredToComment } from '../settings/queries.ts';
import { deleteSchema, listSchema, postSchema, updateSchema } from './schemas.ts';

export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app;
  const own = ownCookie({ key: app.ownCommentsKey, https: app.config.https, clock });

  app.get(
    '/api/comments',
    {
      config: { guard: (query) => (flag(query.mine) ? COMMENT_ROLES.mine : COMMENT_ROLES.list) },
      schema: listSchema,
    },
    async (request, reply) => {
      const { query, viewer } = request;
      // What is this viewer's comes apart from the shared list, which stays cacheable for all.
      if (flag(query.mine)) {
        // Signed-in users, and guests whose browser has posted (a fresh visitor: as before, 401),
        // asked before the streamer (DECISIONS.md "Errors": 401 before 400).
        const ownIds = own.read(request);
        if (!viewer.user && ownIds === null) throw fail('not_logged_in');
        return mineOf(db, givenId(parseId(query.streamer_id), 'missing_streamer_id'), viewer, ownIds ?? []);
      }
      const streamerId = givenId(parseId(query.streamer_id), 'missing_streamer_id');
      return sendAnswer(request, reply, await commentList(app.ctx, streamerId, isStaff(viewer), query));
    },
  );

  app.post(
    '/api/comments',
    {
      config: {
        guard: COMMENT_ROLES.post,
        contribution: true,
        idempotencyKey: true,
        ...limit('comment'),
        // SPEC.md's sign-in rule and a banned session's mark are about the caller: a guest
        // refused for the body (malformed, too large) or the rate hears them instead
        // (DECISIONS.md "Errors": 401/403 before 400). Asked only then, so that a post reads
        // no setting of its own: its rules ask them again inside its statement.
        callerFirst: async ({ viewer }) => {
          if (!viewer || !commentsAsGuest(viewer)) return;
          if (await authRequiredToComment(db)) throw fail('sign_in_required');
          if (viewer.bannedUser || viewer.bannedSession) throw fail('banned');
        },
      },
      schema: postSchema,
    },
    async (request, reply) => {
      const posted = await postComment(
        app.ctx,
        request.viewer,
        request.body,
        request.guestTag,
        clock.now(),
        keepAnswer(request, reply, 201),
      );
      // A guest's browser remembers its comment in its own signed cookie: no second write.
      if (!request.viewer.user) own.write(request, reply, [...(own.read(request) ?? []), posted.id]);
      return reply.code(201).send(posted);
    },
  );

  app.put(
    '/api/comments',
    {
      config: {
        guard: (query) =>
          flag(query.like) ? COMMENT_ROLES.like : flag(query.pin) ? COMMENT_ROLES.pin : COMMENT_ROLES.change,
        contribution: true,
      },
      schema: updateSchema,
      // Whoever may pin nothing at all hears it before the body is read (DECISIONS.md "Errors").
      preParsing: async (request, _reply, payload) => {
        if (flag(request.query.pin) && !flag(request.query.like)) assertPinner(request.viewer);
        return payload;
      },
    },
    async (request) => {
      const { viewer, query, body } = request;
      const id = parseId(query.id);
      if (flag(query.like)) {
        if (!viewer.user) throw fail('banned');
        if (id === null) throw fail('missing_id');
        return { ok: true as const, likes: await likeComment(app.ctx, viewer, id, body.liked) };
      }
      if (flag(query.pin)) {
        await pinComment(app.ctx, viewer, id, body.pinned);
        return OK;
      }
      if (id === null) throw fail('missing_id');
      await changeComment(app.ctx, viewer, id, body);
      return OK;
    },
  );

  app.delete(
    '/api/comments',
    {
      config: { guard: COMMENT_ROLES.delete },
      schema: deleteSchema,
      // Whoever is neither the administrator nor a guest with comments here gets the guard's
      // answer, before a body is read (DECISIONS.md "Errors": the role before the input).
      preParsing: (request, _reply, payload, done) =>
        done(
          mayDelete(request.viewer) || (own.read(request)?.length ?? 0) > 0 ? null : fail('unauthorized'),
          payload,
        ),
    },
    async (request, reply) => {
      const { viewer } = request;
      const ownIds = own.read(request) ?? [];
      const id = parseId(request.query.id);
      if (id === null) throw fail('missing_id');
      if (!mayDeleteComment(viewer, ownIds, id)) throw fail('unauthorized');
      if (mayDelete(viewer)) await removeComment(app.ctx, viewer, id);
      else await removeGuestComment(app.ctx, id);
      if (ownIds.includes(id))
        own.write(
          request,
          reply,
          ownIds.filter((x) => x !== id),
        );
      return OK;
    },
  );

  methodNotAllowed(app, '/api/comments', ['GET', 'POST', 'PUT', 'DELETE']);
};
