import type { AppContext } from '../context.ts';
import { lockRow } from '../db/dialect.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail, givenId } from '../errors.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { speakerOfStreamer } from '../catalogue/speaks-for.ts';
import { keptByHand, mayKeepSchedule } from './policy.ts';
import { replaceManual } from './queries.ts';
import { manualSegments } from './rules.ts';

/**
 * Who may keep a schedule at all, known from the session alone: the route asks it before the
 * body is read (DECISIONS.md "Errors": 401/403 before 400), the operation again.
 */
export function assertScheduleKeeper(viewer: Viewer): void {
  if (viewer.bannedUser) throw fail('banned');
  if (!viewer.user && !viewer.isAdmin) throw fail('not_logged_in');
}

/**
 * `PUT /api/streamers?id=N&schedule=1` (DECISIONS.md "Schedules"): the user who speaks for a
 * provider_b streamer, or staff, replaces every hand-kept segment. Refused in this order, and
 * then nothing changes: banned 403, signed out 401, an unknown streamer 404, someone else 403
 * `Not allowed`, a provider_a streamer 409 (its schedule is Twitch's), a schedule outside the
 * rules 400 `Invalid schedule`. Who speaks is decided inside the write transaction.
 */
export async function keepSchedule(
  ctx: AppContext,
  viewer: Viewer,
  given: number | null,
  input: unknown,
): Promise<void> {
  assertScheduleKeeper(viewer);
  const id = givenId(given);
  const now = ctx.clock.now();
  await writeTransaction(ctx.database, async (trx) => {
    // Two replacements of one streamer's schedule take turns (PostgreSQL: its row locked until
    // the commit), so the second sees the first's rows and deletes them, never a unique key's 500.
    await lockRow(trx, 'streamers', id);
    const streamer = await trx
      .selectFrom('streamers')
      .select('platform')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!streamer) throw fail('streamer_not_found');
    const speaker = viewer.user ? await speakerOfStreamer(trx, id) : null;
    const speaksFor = speaker !== null && speaker === viewer.user?.id ? [id] : [];
    if (!mayKeepSchedule(viewer, speaksFor, id)) throw fail('not_allowed');
    if (!keptByHand(streamer.platform)) throw fail('schedule_from_provider');
    const segments = manualSegments(input, id, now);
    if (segments === null) throw fail('invalid_schedule');
    await replaceManual(trx, id, segments);
  });
}
