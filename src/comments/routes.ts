import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../audit/queries.ts';
import { sendRendered } from '../cache/send.ts';
import { contentVersion } from '../db/changes.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { clamp, cleanText, codePointLength, parseId, singleLine, toInt, truthy } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { limit } from '../plugins/rate-limits.ts';
import { authRequiredToComment } from '../settings/queries.ts';
import { DEFAULT_AUTHOR, LIMITS } from '../shared/rules.ts';
import { isStaff } from '../shared/roles.ts';
import { streamerExists } from '../streamers/queries.ts';
import { deleteComment, editBody, findComment, insertComment, listComments, setHidden } from './queries.ts';
import {
  COMMENT_ROLES,
  editWindowOpen,
  hiddenBy,
  isOwn,
  maySetHidden,
  mustSignInToComment,
} from './policy.ts';
import { deleteSchema, listSchema, postSchema, updateSchema } from './schemas.ts';

/** SPEC.md's body rules: trimmed, 2 to 1000 characters (code points). */
function commentBody(value: unknown): string {
  const body = cleanText(value) ?? '';
  const length = codePointLength(body);
  if (length < LIMITS.commentMin) throw fail('comment_too_short');
  if (length > LIMITS.commentMax) throw fail('comment_too_long');
  return body;
}

export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app;

  app.get(
    '/api/comments',
    { config: { guard: COMMENT_ROLES.list }, schema: listSchema },
    async (request, reply) => {
      const { query, viewer } = request;
      const streamerId = parseId(query.streamer_id);
      if (streamerId === null) throw fail('missing_streamer_id');
      const withHidden = isStaff(viewer);
      const page =
        query.limit === undefined
          ? undefined
          : { limit: clamp(toInt(query.limit), 1, 100), before: parseId(query.before) };
      // Rendered once per change of the content, not per request (cache/rendered.ts).
      const key = `comments:${streamerId}:${withHidden ? 'all' : 'visible'}:${page ? `${page.limit}:${page.before}` : '-'}`;
      // Only the bytes are kept: the items of a busy streamer are tens of thousands of objects.
      const rendered = await app.renderCache.get(
        key,
        contentVersion(db).current,
        async () => {
          if (!(await streamerExists(db, streamerId))) throw fail('streamer_not_found');
          return listComments(db, streamerId, { withHidden, page });
        },
        false,
      );
      return sendRendered(request, reply, rendered);
    },
  );

  app.post(
    '/api/comments',
    { config: { guard: COMMENT_ROLES.post, ...limit('comment') }, schema: postSchema },
    async (request, reply) => {
      const { viewer, body: input } = request;
      if (mustSignInToComment(viewer, await authRequiredToComment(db))) throw fail('sign_in_required');
      const streamerId = parseId(input.streamer_id);
      if (streamerId === null) throw fail('missing_streamer_id');
      const body = commentBody(input.body);
      if (!(await streamerExists(db, streamerId))) throw fail('streamer_not_found');

      const { user } = viewer;
      const author = user ? user.display_name : singleLine(input.author, LIMITS.author) || DEFAULT_AUTHOR;
      const comment = {
        streamer_id: streamerId,
        user_id: user?.id ?? null,
        author,
        body,
        is_admin: viewer.isAdmin ? 1 : 0,
        created_at: clock.now().toISOString(),
      };
      const id = await writeTransaction(db, (trx) => insertComment(trx, comment));
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

  app.put(
    '/api/comments',
    { config: { guard: COMMENT_ROLES.change }, schema: updateSchema },
    async (request) => {
      const { viewer, query, body: input } = request;
      const id = parseId(query.id);
      if (id === null) throw fail('missing_id');
      if (input.hidden === undefined && input.body === undefined) throw fail('nothing_to_update');
      const body = input.body === undefined ? undefined : commentBody(input.body);

      await writeTransaction(db, async (trx) => {
        const comment = await findComment(trx, id);
        if (!comment) throw fail('comment_not_found');
        if (input.hidden !== undefined) {
          const hidden = truthy(input.hidden);
          if (!maySetHidden(viewer, comment, hidden)) throw fail('not_your_comment');
          const by = hiddenBy(viewer, comment);
          if (by === 'staff') {
            await audit(trx, actorOf(viewer, clock.now()), {
              action: 'comment.hide',
              target_id: id,
              params: { author: comment.author, hidden },
              details: { streamer_id: comment.streamer_id, old: comment.hidden === 1, new: hidden },
            });
          }
          await setHidden(trx, id, hidden, by);
        }
        if (body !== undefined) {
          if (!isOwn(viewer, comment)) throw fail('not_your_comment');
          if (!editWindowOpen(comment, clock.now().getTime())) throw fail('edit_window_closed');
          await editBody(trx, id, body, clock.now().toISOString());
        }
      });
      return OK;
    },
  );

  app.delete(
    '/api/comments',
    { config: { guard: COMMENT_ROLES.delete }, schema: deleteSchema },
    async (request) => {
      const id = parseId(request.query.id);
      if (id === null) throw fail('missing_id');
      await writeTransaction(db, async (trx) => {
        const comment = await findComment(trx, id);
        if (!comment || !(await deleteComment(trx, id))) throw fail('comment_not_found');
        await audit(trx, actorOf(request.viewer, clock.now()), {
          action: 'comment.delete',
          target_id: id,
          params: { author: comment.author },
          details: { streamer_id: comment.streamer_id, old: comment },
        });
      });
      return OK;
    },
  );

  methodNotAllowed(app, '/api/comments', ['GET', 'POST', 'PUT', 'DELETE']);
};
