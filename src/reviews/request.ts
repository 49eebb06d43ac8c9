import { actorOf, audit } from '../audit/queries.ts';
import { type Keep, keepNothing } from '../idempotency/keep.ts';
import { OK } from '../lib/schemas.ts';
import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail, givenId } from '../errors.ts';
import { DAY } from '../lib/clock.ts';
import { cleanText } from '../lib/input.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { REVIEWS } from '../shared/reviews.ts';
import { speakerOfStreamer } from '../catalogue/speaks-for.ts';
import { mayRequest } from './policy.ts';
import { addRequest, lastPublished, openRequest } from './queries.ts';
import { lockStreamer } from './review.ts';

/** A request's reason: trimmed, REVIEWS.reasonMin to reasonMax characters, else 400 `Invalid reason`. */
export function reasonOf(input: unknown): string {
  const reason = cleanText(input) ?? '';
  const length = [...reason].length;
  if (length < REVIEWS.reasonMin || length > REVIEWS.reasonMax) throw fail('invalid_reason');
  return reason;
}

/**
 * Who may ask for a re-rating at all, known from the session alone: the route asks it before
 * the body is read (DECISIONS.md "Errors": 401/403 before 400), the operation again for its user.
 */
export function requesterOf(viewer: Viewer): NonNullable<Viewer['user']> {
  if (viewer.bannedUser) throw fail('banned');
  const user = viewer.user;
  if (!user) throw fail(viewer.isAdmin ? 'not_your_channel' : 'not_logged_in');
  return user;
}

/**
 * The verified streamer asks for a re-rating (DECISIONS.md "Staff reviews"): at most one open
 * request per streamer (409 `Request already open`; the database's partial unique index holds
 * it against a race), none within 90 days of the last publish (409 `Rated recently`). Who
 * speaks is decided inside the transaction, as for the right of reply (streamers/reply.ts).
 */
export async function requestRerating(
  ctx: AppContext,
  viewer: Viewer,
  id: number | null,
  input: unknown,
  /** Keeps the answer under the request's Idempotency-Key, in this transaction. */
  keep: Keep = keepNothing,
): Promise<{ ok: true }> {
  const user = requesterOf(viewer);
  const streamerId = givenId(id, 'missing_streamer_id');
  const now = ctx.clock.now();
  return writeTransaction(
    ctx.database,
    async (trx) => {
      const speaksFor = (await speakerOfStreamer(trx, streamerId)) === user.id ? [streamerId] : [];
      if (!mayRequest(viewer, speaksFor, streamerId)) throw fail('not_your_channel');
      const reason = reasonOf(input);
      const name = await lockStreamer(trx, streamerId);
      if (await openRequest(trx, streamerId)) throw fail('request_open');
      const published = await lastPublished(trx, streamerId);
      if (published !== null && now.getTime() - Date.parse(published) < REVIEWS.requestAfterDays * DAY) {
        throw fail('rated_recently');
      }
      await addRequest(trx, streamerId, user.id, reason, now.toISOString());
      await audit(trx, actorOf(viewer, now), {
        action: 'review.request',
        target_id: streamerId,
        params: { name },
        details: { reason },
      });
      return keep(trx, OK);
    },
    'content',
  );
}
