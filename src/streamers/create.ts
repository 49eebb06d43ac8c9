import { actorOf, audit } from '../audit/queries.ts';
import type { AppContext, Logger } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { suggestedEmbed } from '../discord/events.ts';
import { tellDiscord } from '../discord/queries.ts';
import { fail } from '../errors.ts';
import type { Keep } from '../idempotency/keep.ts';
import { passChallenge } from '../guests/challenge.ts';
import { burstSince, checkGuestPost } from '../guests/rules.ts';
import { writeFailure } from '../db/write-failure.ts';
import { codePointLength, nameLine, sanitize } from '../lib/input.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { LIMITS } from '../shared/rules.ts';
import { insertStreamer } from './queries.ts';

/** A streamer name that is taken answers SPEC.md's 409. */
export const NAME_TAKEN = { name_key: 'streamer_exists', name_fold: 'streamer_exists' } as const;

/** A sanitized name of at least `LIMITS.nameMin` characters, else SPEC.md's 400. */
export function streamerName(value: unknown): string {
  const name = sanitize(value);
  if (codePointLength(name) < LIMITS.nameMin) throw fail('invalid_streamer_name');
  return name;
}

export interface CreateInput {
  name?: unknown;
  platform?: unknown;
  kick_name?: unknown;
  provider_a?: unknown;
  provider_b?: unknown;
  submitter?: unknown;
  /** A guest's solution of the challenge (guests/challenge.ts). */
  altcha?: unknown;
}

/**
 * Adds a streamer (administrator, audited) or takes a visitor's suggestion (a guest's rules:
 * guests/rules.ts; the label may not pass for staff or someone who signed in, as staff read it;
 * Discord hears of it). Answers `{ok, id}`, kept by `keep` in the same transaction.
 */
export async function createStreamer(
  ctx: AppContext,
  request: { viewer: Viewer; guestTag: string; log: Logger },
  input: CreateInput,
  byAdmin: boolean,
  keep: Keep,
): Promise<{ ok: true; id: number }> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const submitter = nameLine(input.submitter, LIMITS.submitter);
  let name = '';
  let challenged = false;
  const validate = () => void (name = streamerName(input.name));
  if (byAdmin) validate();
  else
    await checkGuestPost(
      ctx.db,
      request.viewer,
      {
        guestTag: request.guestTag,
        createdAt: at,
        name: submitter,
        burstSince: burstSince(ctx.config.rateLimit, now),
        challenge: async () => void (challenged = true),
      },
      validate,
    );
  const platform = input.platform === 'provider_b' ? 'provider_b' : 'provider_a';
  try {
    return await writeTransaction(ctx.database, async (trx) => {
      // The solution is used up in the suggestion's own transaction: a suggestion refused
      // after it (a name taken) stores nothing and leaves the solution usable.
      if (challenged) await passChallenge(trx, ctx.challengeKey, input.altcha, now);
      const id = await insertStreamer(trx, {
        name,
        platform,
        kick_name: sanitize(input.kick_name ?? input.provider_b),
        provider_a: sanitize(input.provider_a),
        added_by: byAdmin ? 'admin' : 'viewer',
        submitter,
        created_at: at,
        guest_tag: byAdmin ? null : request.guestTag,
        suggested_by: byAdmin ? null : (request.viewer.user?.id ?? null),
      });
      if (byAdmin) {
        await audit(trx, actorOf(request.viewer, now), {
          action: 'streamer.add',
          target_id: id,
          params: { name },
        });
      } else {
        tellDiscord(trx, 'suggested', [suggestedEmbed({ id, name, platform }, at)]);
      }
      return keep(trx, { ok: true as const, id });
    });
  } catch (err) {
    return writeFailure(err, request.log, NAME_TAKEN);
  }
}
