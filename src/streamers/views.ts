import type { FastifyInstance } from 'fastify';
import { type Answer, jsonAnswer } from '../cache/answer.ts';
import type { Db } from '../db/schema.ts';
import { statsOf } from '../history/stats.ts';
import { averageTenths, scoreSum } from '../shared/rules.ts';
import { listStreamers, type StreamerListRow } from './queries.ts';
import type { StreamerItem } from './schemas.ts';

import type { View } from './policy.ts';

export type { View };

/**
 * "Name ascending" is case-insensitive and made here, so both databases answer in the same
 * order whatever their collation; ties fall back to the id.
 */
const compareNames = (a: StreamerListRow, b: StreamerListRow) =>
  a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : a.id - b.id;
const byEvaluatedThenName = (a: StreamerListRow, b: StreamerListRow) =>
  b.evaluated - a.evaluated || compareNames(a, b);

export function present(row: StreamerListRow, view: View): StreamerItem {
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
    team_id: row.team_id,
    team_name: row.team_name,
    comment_count: row.comment_count,
    audience_score:
      row.audience_votes === 0 ? null : averageTenths(row.audience_sum, row.audience_votes) / 10,
    audience_votes: row.audience_votes,
    stats_30d: statsOf(row.stats),
    ...(view === 'full' && row.notes !== null ? { notes: row.notes } : {}),
    // Staff read a visitor's suggestion with who sent it (issue 17); nobody else sees the label.
    ...(view === 'full' && row.added_by === 'viewer' ? { submitter: row.submitter } : {}),
  };
}

/** The items of a view, in its order. */
export async function listView(db: Db, view: View): Promise<StreamerItem[]> {
  const rows = await listStreamers(db);
  if (view !== 'public') return rows.sort(byEvaluatedThenName).map((r) => present(r, view));
  return rows
    .filter((r) => r.evaluated === 1 && r.has_rating)
    .map((r) => ({ row: r, sum: scoreSum(r.scores) }))
    .sort((a, b) => b.sum - a.sum || compareNames(a.row, b.row))
    .map(({ row }) => present(row, view));
}

/** The answer cache's key of a view (cache/answers.ts). */
export const viewKey = (view: View): string => `streamers:${view}`;

/** A view's answer, made once per change of the content and shared by every request. */
export function renderedView(app: FastifyInstance, view: View): Promise<Answer<StreamerItem[]>> {
  return app.answers.get(viewKey(view), async (version) =>
    jsonAnswer(await listView(app.db, view), version, true),
  );
}

/** The items of a view's answer. */
export const itemsOf = (answer: Answer<StreamerItem[]>): StreamerItem[] => answer.value ?? [];
