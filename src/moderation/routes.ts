import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, audit } from '../audit/queries.ts';
import { findComment } from '../comments/queries.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { keepAnswer } from '../idempotency/keep.ts';
import { clamp, parseId, toInt } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK, pageLimit } from '../lib/schemas.ts';
import { shortTag } from '../plugins/guest-tag.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { LIMITS, MODERATION_ACTIONS, type ModerationAction } from '../shared/rules.ts';
import { deleteBlock, findBlock, insertBlock, listBlocks } from './block-queries.ts';
import { notifyApproved, notifyDeleted, notifyHidden, notifyShown } from '../notifications/notify.ts';
import { bulkAction, bulkTargets, moderationQueue, type Selector } from './queries.ts';
import {
  bulkSchema,
  createBlockSchema,
  deleteBlockSchema,
  listBlocksSchema,
  queueSchema,
} from './schemas.ts';
import { mayBlockAuthorOf, mayModerate } from './policy.ts';

const DAY_MS = 86_400_000;

/** Exactly one of ids (1-100 ids), user_id or guest_tag (10 to 64 hex characters), else null. */
export function selectorOf(body: { ids?: unknown; user_id?: unknown; guest_tag?: unknown }): Selector | null {
  const given = [body.ids, body.user_id, body.guest_tag].filter((v) => v !== undefined && v !== null);
  if (given.length !== 1) return null;
  if (body.ids !== undefined && body.ids !== null) {
    if (!Array.isArray(body.ids) || body.ids.length < 1 || body.ids.length > LIMITS.bulkIds) return null;
    const ids = body.ids.map(parseId);
    return ids.every((id): id is number => id !== null) ? { ids: [...new Set(ids)] } : null;
  }
  if (body.user_id !== undefined && body.user_id !== null) {
    const id = parseId(body.user_id);
    return id === null ? null : { user_id: id };
  }
  const tag = typeof body.guest_tag === 'string' ? body.guest_tag.trim().toLowerCase() : '';
  return /^[0-9a-f]{10,64}$/.test(tag) ? { guest_tag: tag } : null;
}

/** A selector as the audit log keeps it: staff see a guest tag's first 10 characters. */
const shown = (s: Selector) => ('guest_tag' in s ? { guest_tag: shortTag(s.guest_tag) } : s);

/** Who acted, as a block names them: the staff member's display name, or `admin`. */
const staffName = (viewer: Viewer): string => viewer.user?.display_name ?? 'admin';

/**
 * DECISIONS.md "Reports and the moderation queue" and "Guests, names and bans": the queue of
 * every streamer's comments, bulk actions on them, and address blocks. Staff only.
 */
export const moderationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, database, clock } = app;
  const staff = { guard: mayModerate };

  app.get('/api/moderation/comments', { config: staff, schema: queueSchema }, async (request) => {
    const { query } = request;
    return moderationQueue(db, {
      filter: query.filter === 'recent' || query.filter === 'pending' ? query.filter : 'reported',
      limit: pageLimit(query.limit, 50),
      before: parseId(query.before),
    });
  });

  app.put('/api/moderation/comments', { config: staff, schema: bulkSchema }, async (request) => {
    const { body } = request;
    const action = body.action as ModerationAction;
    if (!MODERATION_ACTIONS.includes(action)) throw fail('invalid_action');
    const selector = selectorOf(body);
    if (!selector) throw fail('invalid_selector');
    const now = clock.now();
    const count = await writeTransaction(database, async (trx) => {
      const targets = await bulkTargets(trx, action, selector);
      if (action === 'delete') await notifyDeleted(trx, targets);
      const changed = await bulkAction(trx, action, selector, now.toISOString());
      if (action === 'hide')
        await notifyHidden(trx, targets, request.viewer.user?.id ?? null, now.toISOString());
      if (action === 'show') await notifyShown(trx, targets);
      if (action === 'approve') await notifyApproved(trx, targets);
      await audit(trx, actorOf(request.viewer, now), {
        action: 'comment.bulk',
        target_id: 'user_id' in selector ? selector.user_id : null,
        params: { action, count: changed, selector: shown(selector) },
      });
      return changed;
    });
    return { ok: true as const, count };
  });

  app.post(
    '/api/moderation/blocks',
    { config: { ...staff, idempotencyKey: true }, schema: createBlockSchema },
    async (request, reply) => {
      const { body, viewer } = request;
      const commentId = parseId(body.comment_id);
      if (commentId === null) throw fail('missing_comment_id');
      const days =
        body.days === undefined || body.days === null
          ? LIMITS.blockDaysDefault
          : clamp(toInt(body.days), 1, LIMITS.blockDaysMax);
      const now = clock.now();
      const keep = keepAnswer(request, reply, 201);
      const answer = await writeTransaction(database, async (trx) => {
        const comment = await findComment(trx, commentId);
        if (!comment) throw fail('comment_not_found');
        if (!mayBlockAuthorOf(viewer, comment)) throw fail('use_ban_for_users');
        if (!comment.guest_tag) throw fail('no_guest_tag');
        const blockId = await insertBlock(trx, {
          guest_tag: comment.guest_tag,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + days * DAY_MS).toISOString(),
          created_by: staffName(viewer),
          created_by_user_id: viewer.user?.id ?? null,
          comment_id: commentId,
        });
        await audit(trx, actorOf(viewer, now), {
          action: 'block.add',
          target_id: blockId,
          params: { guest_tag: shortTag(comment.guest_tag), author: comment.author, days },
          details: { comment_id: commentId, days, guest_tag: shortTag(comment.guest_tag) },
        });
        return keep(trx, { ok: true as const, id: blockId });
      });
      return reply.code(201).send(answer);
    },
  );

  app.get('/api/moderation/blocks', { config: staff, schema: listBlocksSchema }, async () =>
    (await listBlocks(db, clock.now().toISOString())).map((b) => ({
      ...b,
      guest_tag: shortTag(b.guest_tag),
    })),
  );

  app.delete('/api/moderation/blocks', { config: staff, schema: deleteBlockSchema }, async (request) => {
    const id = parseId(request.query.id);
    if (id === null) throw fail('missing_id');
    const now = clock.now();
    await writeTransaction(database, async (trx) => {
      const block = await findBlock(trx, id);
      if (!block || !(await deleteBlock(trx, id))) throw fail('block_not_found');
      await audit(trx, actorOf(request.viewer, now), {
        action: 'block.remove',
        target_id: id,
        params: { guest_tag: shortTag(block.guest_tag) },
        details: { guest_tag: shortTag(block.guest_tag), expires_at: block.expires_at },
      });
    });
    return OK;
  });

  methodNotAllowed(app, '/api/moderation/comments', ['GET', 'PUT']);
  methodNotAllowed(app, '/api/moderation/blocks', ['GET', 'POST', 'DELETE']);
};
