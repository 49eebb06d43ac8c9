import { type Answer, API_CACHE_CONTROL, JSON_TYPE, jsonAnswer, makeAnswer } from '../cache/answer.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { statsOf } from '../history/stats.ts';
import { averageTenths, scoreSum } from '../shared/rules.ts';
import { byBayesianAverage, countedVotes, isDivergent, siteTally, type Tally } from '../votes/audience.ts';
import { speakersVotes } from '../votes/queries.ts';
import { listStreamers, type StreamerListRow } from './queries.ts';
import { storedReplies } from './reply.ts';
import { speakersOf } from '../catalogue/speaks-for.ts';
import { nextStreams } from '../schedules/queries.ts';
import type { StreamerItem } from './schemas.ts';

import type { Who } from '../shared/roles.ts';
import { type View, viewOf } from './policy.ts';

export type { View };

/**
 * "Name ascending" is case-insensitive and made here, so both databases answer in the same
 * order whatever their collation; ties fall back to the id.
 */
const compareNames = (a: StreamerListRow, b: StreamerListRow) =>
  a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : a.id - b.id;
const byEvaluatedThenName = (a: StreamerListRow, b: StreamerListRow) =>
  b.evaluated - a.evaluated || compareNames(a, b);

/**
 * One item of a view. `speaker`: the user who speaks for the streamer (speaks-for.ts), or
 * null; their reply is shown only while they still do (a reply of an account that lost its
 * channel or was banned is kept but not shown).
 */
export function present(
  row: StreamerListRow,
  view: View,
  speaker: number | null,
  stored?: { user_id: number; body: string; at: string; rating_at: string },
  nextStream: string | null = null,
): StreamerItem {
  const reply = stored !== undefined && stored.user_id === speaker ? stored : null;
  return {
    id: row.id,
    name: row.name,
    platform: row.platform,
    provider_a: row.provider_a,
    provider_b: row.kick_name,
    kick_name: row.kick_name,
    status: row.status,
    game: row.game,
    title: row.title,
    avatar: row.avatar,
    viewers: row.viewers,
    live_since: row.live_since,
    synced_at: row.synced_at,
    evaluated: row.evaluated === 1,
    community_locked: row.community_locked === 1,
    added_by: view === 'full' ? row.added_by : 'admin',
    r: row.scores,
    reward: row.reward,
    rated_at: row.rated_at,
    team_id: row.team_id,
    team_name: row.team_name,
    comment_count: row.comment_count,
    audience_score:
      row.audience_votes === 0 ? null : averageTenths(row.audience_sum, row.audience_votes) / 10,
    audience_votes: row.audience_votes,
    audience_histogram: row.audience_histogram,
    divergent: isDivergent(tallyOf(row), scoreSum(row.scores)),
    followers: row.followers,
    verified: speaker !== null,
    streamer_reply: reply === null ? null : { body: reply.body, at: reply.at, rating_at: reply.rating_at },
    stats_30d: statsOf(row.stats),
    next_stream: nextStream,
    ...(view === 'full' && row.notes !== null ? { notes: row.notes } : {}),
    // Staff see the signed-in account that suggested it; the label is never returned (issue 26).
    ...(view === 'full' ? { suggested_by: row.suggested_by } : {}),
  };
}

const tallyOf = (row: StreamerListRow): Tally => ({ votes: row.audience_votes, sum: row.audience_sum });

/**
 * The orders of the list: each view's own (SPEC.md), and `audience`, the Public view's
 * streamers by the Bayesian average of their votes (votes/audience.ts), ties by name.
 */
export type Order = View | 'audience';

/**
 * The items of a view (or of the audience ranking), in its order, and when they turn stale by
 * the clock alone (a next stream that ends: schedules/queries.ts `nextStreams`).
 */
export async function listView(
  db: Db,
  order: Order,
  now: Date,
): Promise<{ items: StreamerItem[]; expires: number | null }> {
  const [stored, replies, streams] = await Promise.all([
    listStreamers(db),
    storedReplies(db),
    nextStreams(db, now),
  ]);
  const items = await orderedItems(db, order, stored, replies, streams.next);
  return { items, expires: streams.expires };
}

async function orderedItems(
  db: Db,
  order: Order,
  stored: StreamerListRow[],
  replies: Awaited<ReturnType<typeof storedReplies>>,
  next: Map<number, string>,
): Promise<StreamerItem[]> {
  const speakers = await speakersOf(db, stored);
  const own = await speakersVotes(db, speakers);
  const rows = stored.map((r) => countedVotes(r, own.get(r.id)));
  const view = order === 'audience' ? 'public' : order;
  const item = (r: StreamerListRow) =>
    present(r, view, speakers.get(r.id) ?? null, replies.get(r.id), next.get(r.id) ?? null);
  if (order === 'audience') {
    // The mean of every vote on the site, the Public view's or not.
    const byAudience = byBayesianAverage(siteTally(rows.map(tallyOf)));
    return rows
      .filter((r) => r.in_public_view)
      .sort((a, b) => byAudience(tallyOf(a), tallyOf(b)) || compareNames(a, b))
      .map(item);
  }
  if (view !== 'public') return rows.sort(byEvaluatedThenName).map(item);
  return rows
    .filter((r) => r.in_public_view)
    .map((r) => ({ row: r, sum: scoreSum(r.scores) }))
    .sort((a, b) => b.sum - a.sum || compareNames(a.row, b.row))
    .map(({ row }) => item(row));
}

/** The answer cache's key of a view's or order's answer (cache/answers.ts). */
export const viewKey = (order: Order): string => `streamers:${order}`;

/** The answer cache's key of a view's or order's items, apart from their JSON (`listedItems`). */
export const itemsKey = (order: Order): string => `items:${order}`;

/**
 * A view's (or order's) items, made once per change of the content and shared, kept as an
 * answer without bytes under its own key: those who only look items up (the pages, cards,
 * chat lines, feeds, one streamer's item) never make the list's JSON (for 10,000 streamers,
 * 4.9 MB of it: docs/benchmarks.md "Stop 73").
 */
export function listedItems(ctx: AppContext, order: Order): Promise<Answer<StreamerItem[]>> {
  return ctx.answers.get(itemsKey(order), async (version) => {
    const { items, expires } = await listView(ctx.db, order, ctx.clock.now());
    return makeAnswer(Buffer.alloc(0), {
      type: JSON_TYPE,
      cacheControl: API_CACHE_CONTROL,
      version,
      expires,
      value: items,
    });
  });
}

/** A view's (or order's) answer, made once per change of the content and shared by every request. */
export function renderedView(ctx: AppContext, order: Order): Promise<Answer<StreamerItem[]>> {
  return ctx.answers.get(viewKey(order), async (version) => {
    const items = await listedItems(ctx, order);
    return jsonAnswer(itemsOf(items), items.version ?? version, true, items.expires);
  });
}

/** The items of a view's answer or of its items' (`listedItems`). */
export const itemsOf = (answer: Answer<StreamerItem[]>): StreamerItem[] => answer.value ?? [];

/**
 * The view of the streamers a caller gets (`GET /api/streamers`, `all` asking for every
 * streamer where the caller may list them all): the public list, a team's, or the full one.
 * Whether they are in a team came with their session (sessions/store.ts): no query here.
 */
export const viewFor = (who: Who & { inTeam: boolean }, all: boolean): View =>
  viewOf(who, { all, inTeam: who.inTeam });

/** Which of these streamers a caller may see: those in the widest view the caller may get. */
export async function streamersVisibleTo(
  ctx: AppContext,
  who: Who & { inTeam: boolean },
  ids: readonly number[],
): Promise<Set<number>> {
  const asked = new Set(ids);
  const items = itemsOf(await listedItems(ctx, viewFor(who, true)));
  return new Set(items.flatMap((s) => (asked.has(s.id) ? [s.id] : [])));
}

/** What the event streams ask of the streamers (events/routes.ts `EventSources`). */
export const streamerSight = (ctx: AppContext) => ({
  streamersVisible: (who: Who & { inTeam: boolean }, ids: number[]) => streamersVisibleTo(ctx, who, ids),
  seesBeyondPublic: (who: Who & { inTeam: boolean }) => viewFor(who, true) !== 'public',
});
