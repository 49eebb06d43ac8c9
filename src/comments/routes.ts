import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../audit/queries.ts';
import { jsonAnswer } from '../cache/answer.ts';
import { sendAnswer } from '../cache/sender.ts';
import { BatchWriter, writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { assertGuestMayPost } from '../guests/gate.ts';
import { assertGuestName, guestNameToCheck } from '../guests/names.ts';
import { clamp, cleanText, codePointLength, flag, parseId, singleLine, toInt, truthy } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import { shortTag } from '../plugins/guest-tag.ts';
import { limit } from '../plugins/rate-limits.ts';
import { authRequiredToComment } from '../settings/queries.ts';
import { DEFAULT_AUTHOR, LIMITS } from '../shared/rules.ts';
import { isStaff } from '../shared/roles.ts';
import { streamerExists } from '../streamers/queries.ts';
import {
  type CheckedComment,
  deleteComment,
  editBody,
  findComment,
  insertCheckedComments,
  insertComment,
  type NewComment,
  likedBy,
  listComments,
  setHidden,
  setLiked,
} from './queries.ts';
import type { DbContext } from '../db/context.ts';
import type { Db } from '../db/schema.ts';
import type { Viewer } from '../plugins/viewer.ts';
import {
  COMMENT_ROLES,
  editWindowOpen,
  hiddenBy,
  isOwn,
  mayLike,
  maySetHidden,
  mustSignInToComment,
} from './policy.ts';
import { deleteSchema, listSchema, postSchema, updateSchema } from './schemas.ts';

/** The fields of a post's body that checkedPost reads (as lenient as the route). */
interface PostInput {
  streamer_id?: unknown;
  body?: unknown;
  author?: unknown;
  reply_to?: unknown;
}

/**
 * The thread a reply joins (DECISIONS.md "Taking part"): a visible comment of the same
 * streamer; a reply to a reply joins that reply's thread, so threads stay one level deep.
 * No `reply_to` (absent, 0, not a number) is a top-level comment.
 */
async function threadOf(db: Db, value: unknown, streamerId: number): Promise<number | null> {
  const parentId = parseId(value);
  if (parentId === null) return null;
  const parent = await findComment(db, parentId);
  if (!parent || parent.hidden === 1 || parent.streamer_id !== streamerId) throw fail('invalid_reply_to');
  if (parent.reply_to === null) return parent.id;
  const top = await findComment(db, parent.reply_to);
  if (!top || top.hidden === 1) throw fail('invalid_reply_to');
  return top.id;
}

/** SPEC.md's body rules: trimmed, 2 to 1000 characters (code points). */
function commentBody(value: unknown): string {
  const body = cleanText(value) ?? '';
  const length = codePointLength(body);
  if (length < LIMITS.commentMin) throw fail('comment_too_short');
  if (length > LIMITS.commentMax) throw fail('comment_too_long');
  return body;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** PostgreSQL's group commit of top-level comments (null on SQLite, whose writes all group). */
    commentWriter: BatchWriter<CheckedComment, number | null> | null;
  }
}

/** PostgreSQL: top-level comments are written in groups, one statement each (issue 18). */
export function commentWriter(database: DbContext): BatchWriter<CheckedComment, number | null> | null {
  return database.kind === 'postgres' ? new BatchWriter(database, insertCheckedComments) : null;
}

/** The answer to a comment posted. */
function answerOf(id: number, comment: NewComment, viewer: Viewer) {
  const { user } = viewer;
  return {
    id,
    author: comment.author,
    body: comment.body,
    is_admin: viewer.isAdmin,
    created_at: comment.created_at,
    reply_to: comment.reply_to ?? null,
    ...(user
      ? { user_display: user.display_name, user_avatar: user.avatar, user_provider: user.provider }
      : {}),
  };
}

/**
 * A top-level comment whose remaining checks can all run inside the statement that writes it
 * (PostgreSQL: comments/queries.ts insertCheckedComments): every check that needs no
 * database passed. Null sends the post through the checks one by one, in SPEC.md's order (a
 * reply, a banned session, an invalid body or a reserved name: their errors come from there).
 */
function checkedPost(viewer: Viewer, input: PostInput, guestTag: string, now: Date): CheckedComment | null {
  try {
    const guest = !viewer.user && !viewer.isAdmin;
    if (guest && (viewer.bannedUser || viewer.bannedSession)) return null;
    if (parseId(input.reply_to) !== null) return null;
    const streamerId = parseId(input.streamer_id);
    if (streamerId === null) return null;
    const body = commentBody(input.body);
    const { user } = viewer;
    const author = user ? user.display_name : singleLine(input.author, LIMITS.author) || DEFAULT_AUTHOR;
    return {
      streamer_id: streamerId,
      user_id: user?.id ?? null,
      author,
      body,
      is_admin: viewer.isAdmin ? 1 : 0,
      created_at: now.toISOString(),
      guest_tag: guestTag,
      reply_to: null,
      guest,
      nameFold: guest ? guestNameToCheck(author) : null,
    };
  } catch {
    return null;
  }
}

export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, clock } = app;
  const checkedWriter = app.commentWriter;

  app.get(
    '/api/comments',
    {
      config: { guard: (query) => (flag(query.mine) ? COMMENT_ROLES.mine : COMMENT_ROLES.list) },
      schema: listSchema,
    },
    async (request, reply) => {
      const { query, viewer } = request;
      const streamerId = parseId(query.streamer_id);
      if (streamerId === null) throw fail('missing_streamer_id');
      // What this user likes comes apart from the shared list, which stays cacheable for all.
      if (flag(query.mine) && viewer.user) return { liked: await likedBy(db, streamerId, viewer.user.id) };
      const withHidden = isStaff(viewer);
      const page =
        query.limit === undefined
          ? undefined
          : { limit: clamp(toInt(query.limit), 1, 100), before: parseId(query.before) };
      // Made once per change of the content, not per request (cache/answers.ts).
      const key = `comments:${streamerId}:${withHidden ? 'all' : 'visible'}:${page ? `${page.limit}:${page.before}` : '-'}`;
      // Only the bytes are kept: the items of a busy streamer are tens of thousands of objects.
      const answer = await app.answers.get(key, async (version) => {
        if (!(await streamerExists(db, streamerId))) throw fail('streamer_not_found');
        return jsonAnswer(await listComments(db, streamerId, { withHidden, page }), version);
      });
      return sendAnswer(request, reply, answer);
    },
  );

  app.post(
    '/api/comments',
    { config: { guard: COMMENT_ROLES.post, ...limit('comment') }, schema: postSchema },
    async (request, reply) => {
      const { viewer, body: input } = request;
      const now = clock.now();
      const { user } = viewer;
      const fast = checkedWriter && checkedPost(viewer, input, request.guestTag, now);
      if (fast) {
        const id = await checkedWriter.run(fast);
        if (id !== null) return reply.code(201).send(answerOf(id, fast, viewer));
        // A check in the statement failed: the checks one by one below give its error.
      }
      if (mustSignInToComment(viewer, await authRequiredToComment(db))) throw fail('sign_in_required');
      await assertGuestMayPost(db, request, now);
      const streamerId = parseId(input.streamer_id);
      if (streamerId === null) throw fail('missing_streamer_id');
      const body = commentBody(input.body);
      const replyTo = await threadOf(db, input.reply_to, streamerId);
      const author = user ? user.display_name : singleLine(input.author, LIMITS.author) || DEFAULT_AUTHOR;
      if (!user && !viewer.isAdmin) await assertGuestName(db, author);
      if (!(await streamerExists(db, streamerId))) throw fail('streamer_not_found');

      const comment = {
        streamer_id: streamerId,
        user_id: user?.id ?? null,
        author,
        body,
        is_admin: viewer.isAdmin ? 1 : 0,
        created_at: now.toISOString(),
        guest_tag: request.guestTag,
        reply_to: replyTo,
      };
      const id = await writeTransaction(database, (trx) => insertComment(trx, comment));
      return reply.code(201).send(answerOf(id, comment, viewer));
    },
  );

  app.put(
    '/api/comments',
    {
      config: { guard: (query) => (flag(query.like) ? COMMENT_ROLES.like : COMMENT_ROLES.change) },
      schema: updateSchema,
    },
    async (request) => {
      const { viewer, query, body: input } = request;
      const id = parseId(query.id);
      if (flag(query.like)) {
        if (!mayLike(viewer) || !viewer.user) throw fail('banned');
        if (id === null) throw fail('missing_id');
        const user = viewer.user;
        const likes = await writeTransaction(database, async (trx) => {
          const comment = await findComment(trx, id);
          if (!comment || comment.hidden === 1) throw fail('comment_not_found');
          return setLiked(trx, id, user.id, truthy(input.liked), clock.now().toISOString());
        });
        return { ok: true as const, likes };
      }
      if (id === null) throw fail('missing_id');
      if (input.hidden === undefined && input.body === undefined) throw fail('nothing_to_update');
      const body = input.body === undefined ? undefined : commentBody(input.body);

      await writeTransaction(database, async (trx) => {
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
      await writeTransaction(database, async (trx) => {
        const comment = await findComment(trx, id);
        if (!comment || !(await deleteComment(trx, id))) throw fail('comment_not_found');
        await audit(trx, actorOf(request.viewer, clock.now()), {
          action: 'comment.delete',
          target_id: id,
          params: { author: comment.author },
          // Staff see a guest tag's first 10 characters, in the log too.
          details: {
            streamer_id: comment.streamer_id,
            old: { ...comment, guest_tag: comment.guest_tag && shortTag(comment.guest_tag) },
          },
        });
      });
      return OK;
    },
  );

  methodNotAllowed(app, '/api/comments', ['GET', 'POST', 'PUT', 'DELETE']);
};
