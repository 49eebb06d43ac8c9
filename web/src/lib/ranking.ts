import {
  AUDIENCE_SORT,
  SCORE_KEYS,
  scoreSum as sum,
  searchKey,
  type ScoreKey,
} from '../../../src/shared/rules.ts';
import type { Streamer } from './api.ts';

/** The ranking's choices: what to sort by and which streamers to show. */
export type SortKey = 'total' | ScoreKey | 'comments' | 'hours' | typeof AUDIENCE_SORT;
export interface Filters {
  query: string;
  platform: '' | 'provider_a' | 'provider_b';
  liveOnly: boolean;
  /** Only the streamers the signed-in user follows (DECISIONS.md "Fifth wave" → "Following"). */
  followedOnly: boolean;
  sort: SortKey;
}

export const NO_FILTERS: Filters = {
  query: '',
  platform: '',
  liveOnly: false,
  followedOnly: false,
  sort: 'total',
};

/**
 * The filters in the address (issue 17, #3): `?q=name&sort=g&platform=provider_b&live=1`
 * (`&followed=1`: the fifth wave's "Followed"), so a
 * sorted view can be shared and Back returns to it. Unknown values mean "no filter".
 */
export function filtersFromSearch(search: string): Filters {
  const p = new URLSearchParams(search);
  const sort = p.get('sort') ?? '';
  const platform = p.get('platform') ?? '';
  return {
    query: p.get('q') ?? '',
    sort:
      sort === 'comments' ||
      sort === 'hours' ||
      sort === AUDIENCE_SORT ||
      (SCORE_KEYS as readonly string[]).includes(sort)
        ? (sort as SortKey)
        : 'total',
    platform: platform === 'provider_a' || platform === 'provider_b' ? platform : '',
    liveOnly: p.get('live') === '1',
    followedOnly: p.get('followed') === '1',
  };
}

/**
 * The query string with these filters ('' for none): the filters' own parameters replaced,
 * any other parameter (such as a sign-in's `auth_error`) left for whoever reads it.
 */
export function searchOfFilters(f: Filters, current = ''): string {
  const p = new URLSearchParams(current);
  for (const name of ['q', 'sort', 'platform', 'live', 'followed']) p.delete(name);
  if (f.query.trim()) p.set('q', f.query);
  if (f.sort !== 'total') p.set('sort', f.sort);
  if (f.platform) p.set('platform', f.platform);
  if (f.liveOnly) p.set('live', '1');
  if (f.followedOnly) p.set('followed', '1');
  const s = p.toString();
  return s ? `?${s}` : '';
}

export interface Ranked {
  s: Streamer;
  /** The real position by total among rated streamers, kept under any filter or sort. */
  rank: number | null;
}

/**
 * Ranks by total (ties keep the service's order), then filters and sorts for display. The
 * audience ranking is the service's (`GET /api/streamers?sort=audience`): `audience` holds its
 * ids in order, and streamers it does not hold come after, by rank. `followed`: the ids the
 * signed-in user follows, which `followedOnly` keeps (none while unknown).
 */
export function rankAndFilter(
  list: Streamer[],
  f: Filters,
  audience: readonly number[] = [],
  followed: readonly number[] | null = null,
): Ranked[] {
  const byAudience = new Map(audience.map((id, i) => [id, i]));
  const mine = new Set(followed ?? []);
  const rated = list.filter((s) => s.evaluated).sort((a, b) => sum(b.r) - sum(a.r));
  const ranks = new Map(rated.map((s, i) => [s.id, i + 1]));
  const q = searchKey(f.query.trim());
  const value = (s: Streamer) =>
    f.sort === 'total'
      ? sum(s.r)
      : f.sort === 'comments'
        ? s.comment_count
        : f.sort === 'hours' // hours streamed in the last 30 days (issue 28)
          ? s.stats_30d.hours
          : f.sort === AUDIENCE_SORT // the service's order: the first is the highest
            ? -(byAudience.get(s.id) ?? 1e9)
            : s.r[f.sort];
  return list
    .map((s) => ({ s, rank: ranks.get(s.id) ?? null }))
    .filter(({ s }) => !q || searchKey(s.name).includes(q))
    .filter(({ s }) => !f.platform || s.platform === f.platform)
    .filter(({ s }) => !f.liveOnly || s.status === 'live')
    .filter(({ s }) => !f.followedOnly || mine.has(s.id))
    .sort((a, b) => {
      if (f.sort === 'total') return (a.rank ?? 1e9) - (b.rank ?? 1e9);
      return value(b.s) - value(a.s) || (a.rank ?? 1e9) - (b.rank ?? 1e9);
    });
}

/**
 * Where votes are missing, the audience ranking is by name (DECISIONS.md "Audience score you can
 * trust": streamers without votes last, by name), which the list says in a line: 'none' when no
 * row of the service's order has a vote, 'some' when some have none, null when all have votes.
 */
export function audienceByName(rows: Ranked[], audience: readonly number[]): 'none' | 'some' | null {
  const inOrder = new Set(audience);
  const listed = rows.filter(({ s }) => inOrder.has(s.id));
  const without = listed.filter(({ s }) => s.audience_votes === 0).length;
  if (without === 0) return null;
  return without === listed.length ? 'none' : 'some';
}

/**
 * Whether rows outside the service's audience order are shown (the full and team views list
 * streamers outside the Public view, which it does not rank): they come after it, which the
 * list says in a line. False while the order is not known yet.
 */
export function outsideAudience(rows: Ranked[], audience: readonly number[]): boolean {
  const inOrder = new Set(audience);
  return inOrder.size > 0 && rows.some(({ s }) => !inOrder.has(s.id));
}
