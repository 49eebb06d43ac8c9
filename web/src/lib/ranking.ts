import { scoreSum as sum, searchKey, type ScoreKey } from '../../../src/shared/rules.ts';
import type { Streamer } from './api.ts';

/** The ranking's choices: what to sort by and which streamers to show. */
export type SortKey = 'total' | ScoreKey | 'comments';
export interface Filters {
  query: string;
  platform: '' | 'provider_a' | 'provider_b';
  liveOnly: boolean;
  sort: SortKey;
}

export interface Ranked {
  s: Streamer;
  /** The real position by total among rated streamers, kept under any filter or sort. */
  rank: number | null;
}

/** Ranks by total (ties keep the service's order), then filters and sorts for display. */
export function rankAndFilter(list: Streamer[], f: Filters): Ranked[] {
  const rated = list.filter((s) => s.evaluated).sort((a, b) => sum(b.r) - sum(a.r));
  const ranks = new Map(rated.map((s, i) => [s.id, i + 1]));
  const q = searchKey(f.query.trim());
  const value = (s: Streamer) =>
    f.sort === 'total' ? sum(s.r) : f.sort === 'comments' ? s.comment_count : s.r[f.sort];
  return list
    .map((s) => ({ s, rank: ranks.get(s.id) ?? null }))
    .filter(({ s }) => !q || searchKey(s.name).includes(q))
    .filter(({ s }) => !f.platform || s.platform === f.platform)
    .filter(({ s }) => !f.liveOnly || s.status === 'live')
    .sort((a, b) => {
      if (f.sort === 'total') return (a.rank ?? 1e9) - (b.rank ?? 1e9);
      return value(b.s) - value(a.s) || (a.rank ?? 1e9) - (b.rank ?? 1e9);
    });
}
