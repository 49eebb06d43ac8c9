import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.ts';
import { fail } from '../errors.ts';
import { activeBlock } from '../moderation/block-queries.ts';

/**
 * What a guest (no signed-in user) must pass before a comment or a suggestion: the session
 * of a banned user stays banned after the ban signed it out, and a blocked address may not
 * post. Signed-in users and the administrator (by the shared password) are not guests.
 */
export async function assertGuestMayPost(db: Db, request: FastifyRequest, now: Date): Promise<void> {
  const { viewer } = request;
  if (viewer.user || viewer.isAdmin) return;
  if (viewer.bannedUser || viewer.bannedSession) throw fail('banned');
  if (await activeBlock(db, request.guestTag, now.toISOString())) throw fail('address_blocked');
}
