import { actorOf, audit } from '../audit/queries.ts';
import type { AppContext, Logger } from '../context.ts';
import { lockRow } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { type LiveEvent, publish } from '../db/event-log.ts';
import { notifyRated } from '../notifications/notify.ts';
import { ratedEmbed } from '../discord/events.ts';
import { tellDiscord } from '../discord/queries.ts';
import { fail } from '../errors.ts';
import { writeFailure } from '../db/write-failure.ts';
import { clamp, cleanText, cut, sanitize, singleLine, toInt } from '../lib/input.ts';
import { clampScores } from '../lib/scores.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { LIMITS, moderatorReward, type Scores, scoreSum } from '../shared/rules.ts';
import { NAME_TAKEN, streamerName } from './create.ts';
import { mayEditDetails } from './policy.ts';
import { inPublicView, streamerInPublicView } from '../catalogue/public-view.ts';
import { findStreamerState, type StreamerUpdate, updateStreamer } from './queries.ts';
import { lastRatedAt, saveRating } from './rating-queries.ts';

/** The body of a rating-mode PUT (SPEC.md: PUT /api/streamers?id=N), as leniently as the route reads it. */
export interface RateInput {
  r?: unknown;
  notes?: unknown;
  reward?: unknown;
  name?: unknown;
  platform?: unknown;
  kick_name?: unknown;
  provider_a?: unknown;
  provider_b?: unknown;
  status?: unknown;
  game?: unknown;
  title?: unknown;
  /** The rating the editor started from (its history `at`): a newer one refuses the write. */
  base_at?: unknown;
}

/** The rating row SPEC.md's rules make of a body: clamped scores, notes, the reward. */
function ratingOf(body: RateInput, details: boolean, at: string) {
  const scores = clampScores(body.r);
  const notes = cleanText(body.notes);
  return {
    scores,
    notes: notes === undefined ? null : cut(notes, LIMITS.notes),
    reward: details ? clamp(toInt(body.reward), 0, LIMITS.reward) : moderatorReward(scoreSum(scores)),
    updated_at: at,
  };
}

/** The streamer's own fields: the administrator's whole set, a moderator's `evaluated` alone. */
function fieldsOf(body: RateInput, details: boolean, evaluated: 0 | 1): StreamerUpdate {
  if (!details) return { evaluated };
  const status = body.status === 'live' ? 'live' : 'offline';
  return {
    evaluated,
    ...(body.name === undefined ? {} : { name: streamerName(body.name) }),
    kick_name: sanitize(body.provider_b ?? body.kick_name),
    ...(body.provider_a === undefined ? {} : { provider_a: sanitize(body.provider_a) }),
    ...(body.platform === undefined
      ? {}
      : { platform: body.platform === 'provider_b' ? ('provider_b' as const) : ('provider_a' as const) }),
    status,
    game: singleLine(body.game, LIMITS.game),
    title: singleLine(body.title, LIMITS.title),
    // Set offline by hand: what live sync saw of the stream no longer holds.
    ...(status === 'offline' ? { viewers: null, live_since: null } : {}),
  };
}

type Before = NonNullable<Awaited<ReturnType<typeof findStreamerState>>>;

/** The scores stored before, or null when the streamer was never rated. */
const scoresOf = ({ s, g, a, v, n, ns, o }: Before): Scores | null =>
  s === null ? null : ({ s, g, a, v, n, ns, o } as Scores);

/** The audit entry of a rating write: old and new scores, reward and notes (and an administrator's details). */
function auditEntry(
  id: number,
  before: Before,
  rating: ReturnType<typeof ratingOf>,
  fields: StreamerUpdate,
  details: boolean,
) {
  const { name, reward, notes, kick_name, provider_a, status, game, title } = before;
  const old = scoresOf(before);
  return {
    action: details ? ('streamer.edit' as const) : ('streamer.rate' as const),
    target_id: id,
    params: {
      name,
      from: old ? scoreSum(old) : null,
      to: scoreSum(rating.scores),
      // An administrator's rename is a rating write (SPEC.md's rating mode): the log says so.
      ...(details && fields.name !== undefined && fields.name !== name ? { renamed: fields.name } : {}),
    },
    details: {
      old: {
        r: old,
        reward,
        notes,
        ...(details ? { name, kick_name, provider_a, status, game, title } : {}),
      },
      new: { r: rating.scores, reward: rating.reward, notes: rating.notes, ...(details ? fields : {}) },
    },
  };
}

/**
 * An administrator's status change is told as live sync's is (DECISIONS.md "Live updates"),
 * with the viewers the streamer's item shows after it (set by hand: none known).
 */
function liveChange(id: number, before: Before, fields: StreamerUpdate): LiveEvent[] {
  if (fields.status === undefined || fields.status === before.status) return [];
  const viewers = fields.status === 'offline' ? null : before.viewers;
  return [{ type: 'live', streamer_id: id, status: fields.status, viewers }];
}

/** Two editors of one rating: the second, who started from an older rating, is told. */
async function assertBase(trx: Db, id: number, base: unknown): Promise<void> {
  if (base === undefined) return;
  if ((await lastRatedAt(trx, id)) !== (base ?? null)) throw fail('rating_changed');
}

/**
 * Rates a streamer (SPEC.md's rating mode): the rating row replaced, `evaluated` recomputed,
 * the administrator's details set, a history row and an audit entry written, and Discord's
 * `rated` event when the streamer enters the Public view or its total changes there: all in
 * one transaction.
 */
export async function rateStreamer(
  ctx: AppContext,
  request: { viewer: Viewer; log: Logger },
  id: number,
  body: RateInput,
): Promise<void> {
  const now = ctx.clock.now();
  const details = mayEditDetails(request.viewer);
  const rating = ratingOf(body, details, now.toISOString());
  const fields = fieldsOf(body, details, scoreSum(rating.scores) > 0 ? 1 : 0);
  await writeTransaction(ctx.database, async (trx) => {
    // PostgreSQL: the streamer's row first, then its rating, as its delete takes them (no
    // deadlock); two editors take turns, the second reads the first's rating (assertBase).
    await lockRow(trx, 'streamers', id);
    const before = await findStreamerState(trx, id);
    if (!before) throw fail('streamer_not_found');
    await assertBase(trx, id, body.base_at);
    // The record is written first: when the change then fails, both roll back together.
    await audit(trx, actorOf(request.viewer, now), auditEntry(id, before, rating, fields, details));
    await writeRating(trx, request, id, before, rating, fields);
  });
}

/**
 * The administrator's rating-mode PUT with these scores, inside the caller's transaction (a
 * publish of the staff reviews, reviews/publish.ts): the reward and the notes as they were,
 * every other field of the streamer unchanged, `evaluated` recomputed; one history row. The
 * caller writes its own audit entry. Answers the totals before (null: unrated) and after.
 */
export async function rateWithScores(
  trx: Db,
  request: { viewer: Viewer; log: Logger },
  id: number,
  scores: Scores,
  at: string,
): Promise<{ name: string; from: number | null; to: number }> {
  const before = await findStreamerState(trx, id);
  if (!before) throw fail('streamer_not_found');
  const rating = { scores, notes: before.notes ?? null, reward: before.reward ?? 0, updated_at: at };
  const to = scoreSum(scores);
  await writeRating(trx, request, id, before, rating, { evaluated: to > 0 ? 1 : 0 });
  const old = scoresOf(before);
  return { name: before.name, from: old ? scoreSum(old) : null, to };
}

/**
 * The rating write itself: the rating row and its history row, the streamer's fields, the
 * `rating` event (marked `left` when it takes the streamer out of the Public view: the ranking's
 * streams hear it), and when the streamer enters the Public view or its total changes there, the
 * `rated` notification and Discord's event.
 */
async function writeRating(
  trx: Db,
  request: { viewer: Viewer; log: Logger },
  id: number,
  before: Before,
  rating: ReturnType<typeof ratingOf>,
  fields: StreamerUpdate,
): Promise<void> {
  const sum = scoreSum(rating.scores);
  await saveRating(trx, id, rating);
  await updateStreamer(trx, id, fields).catch((err: unknown) => writeFailure(err, request.log, NAME_TAKEN));
  const left = inPublicView(before) && !(await streamerInPublicView(trx, id));
  const rated: LiveEvent = { type: 'rating', streamer_id: id, ...(left ? { left: true as const } : {}) };
  publish(trx, [rated, ...liveChange(id, before, fields)]);
  const old = scoresOf(before);
  const oldSum = old && inPublicView(before) ? scoreSum(old) : null;
  // Entering the Public view, or a new total: Discord hears of it, and so does the streamer.
  if (sum > 0 && oldSum !== sum) {
    await notifyRated(trx, id, request.viewer.user?.id ?? null, rating.updated_at);
    const embed = ratedEmbed({ id, name: fields.name ?? before.name }, sum, oldSum, rating.updated_at);
    tellDiscord(trx, 'rated', [embed]);
  }
}
