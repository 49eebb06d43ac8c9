import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DomainError, fail } from '../errors.ts';
import { keepAnswer } from '../idempotency/keep.ts';
import { parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK, pageLimit } from '../lib/schemas.ts';
import { PAGE_MAX } from '../shared/rules.ts';
import { shortTag } from '../plugins/guest-tag.ts';
import { listBlocks } from './block-queries.ts';
import { blockAuthorOf, unblock } from './blocks.ts';
import { addressOf, moderateComments } from './bulk.ts';
import { mayModerate } from './policy.ts';
import { moderationQueue } from './queries.ts';
import {
  bulkSchema,
  createBlockSchema,
  deleteBlockSchema,
  listBlocksSchema,
  queueSchema,
} from './schemas.ts';

/**
 * DECISIONS.md "Reports and the moderation queue" and "Guests, names and bans": the queue of
 * every streamer's comments, bulk actions on them, and address blocks. Staff only.
 */
export const moderationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app;
  const staff = { guard: mayModerate };

  app.get('/api/moderation/comments', { config: staff, schema: queueSchema }, async (request) => {
    const { query } = request;
    // One address's comments, the tag read as its bulk action reads it.
    const guestTag = query.guest_tag === undefined ? null : addressOf(query.guest_tag);
    if (query.guest_tag !== undefined && guestTag === null)
      throw new DomainError('invalid_field', { message: 'Invalid guest_tag' });
    return moderationQueue(db, {
      filter: query.filter === 'recent' || query.filter === 'pending' ? query.filter : 'reported',
      limit: pageLimit(query.limit, 50),
      before: parseId(query.before),
      guestTag,
    });
  });

  app.put('/api/moderation/comments', { config: staff, schema: bulkSchema }, async (request) => {
    const count = await moderateComments(app.ctx, request.viewer, request.body);
    return { ok: true as const, count };
  });

  app.post(
    '/api/moderation/blocks',
    { config: { ...staff, idempotencyKey: true }, schema: createBlockSchema },
    async (request, reply) => {
      const { body, viewer } = request;
      const commentId = parseId(body.comment_id);
      if (commentId === null) throw fail('missing_comment_id');
      const answer = await blockAuthorOf(
        app.ctx,
        viewer,
        commentId,
        body.days,
        keepAnswer(request, reply, 201),
      );
      return reply.code(201).send(answer);
    },
  );

  app.get('/api/moderation/blocks', { config: staff, schema: listBlocksSchema }, async ({ query }) =>
    (
      await listBlocks(db, clock.now().toISOString(), pageLimit(query.limit, PAGE_MAX), parseId(query.before))
    ).map((b) => ({
      ...b,
      guest_tag: shortTag(b.guest_tag),
    })),
  );

  app.delete('/api/moderation/blocks', { config: staff, schema: deleteBlockSchema }, async (request) => {
    const id = parseId(request.query.id);
    if (id === null) throw fail('missing_id');
    await unblock(app.ctx, request.viewer, id);
    return OK;
  });

  methodNotAllowed(app, '/api/moderation/comments', ['GET', 'PUT']);
  methodNotAllowed(app, '/api/moderation/blocks', ['GET', 'POST', 'DELETE']);
};
