import { call, client, type Comment } from './api.ts';

/**
 * What is this viewer's on a streamer's page (`GET /api/comments?mine=1`): the comments they
 * like, the ones this browser posted as a guest (which it may delete) and their own comments
 * waiting for a moderator, which the shared list never holds.
 */
export interface Mine {
  liked: number[];
  own: number[];
  held: Comment[];
}

export const NOTHING_MINE: Mine = { liked: [], own: [], held: [] };

const POSTED = 'postedAsGuest';

/** This browser posted as a guest: its session may hold comments of its own. */
export const markPostedAsGuest = (): void => localStorage.setItem(POSTED, '1');
export const postedAsGuest = (): boolean => localStorage.getItem(POSTED) === '1';

export async function loadMine(streamerId: number): Promise<Mine> {
  const answer = await call(
    client.GET('/api/comments', { params: { query: { streamer_id: streamerId, mine: '1' } } }),
  );
  return Array.isArray(answer) ? NOTHING_MINE : answer;
}

/** The list with the viewer's own held comments in their places (by id, as the list is ordered). */
export function withHeld(items: Comment[], held: Comment[]): Comment[] {
  const extra = held.filter((h) => !items.some((c) => c.id === h.id));
  return extra.length === 0 ? items : [...items, ...extra].sort((a, b) => a.id - b.id);
}
