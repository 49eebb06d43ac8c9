/** The service's JSON API, called with the session cookie. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'network');
  }
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  if (!res.ok) {
    const message = (data as { error?: string } | undefined)?.error ?? `HTTP ${res.status}`;
    throw new ApiError(res.status, message);
  }
  return data as T;
}

export type Scores = { s: number; g: number; a: number; v: number; n: number; ns: number; o: number };
export const SCORE_KEYS = ['s', 'g', 'a', 'v', 'n', 'ns', 'o'] as const;
export type ScoreKey = (typeof SCORE_KEYS)[number];

export interface Streamer {
  id: number;
  name: string;
  platform: 'provider_a' | 'provider_b';
  provider_a: string;
  provider_b: string;
  status: 'live' | 'offline';
  game: string;
  title: string;
  evaluated: boolean;
  community_locked: boolean;
  added_by: string;
  r: Scores;
  reward: number;
  team_id: number | null;
  team_name: string | null;
  notes?: string;
}

export interface Comment {
  id: number;
  author: string;
  body: string;
  is_admin: boolean;
  created_at: string;
  user_id: number | null;
  user_display: string | null;
  user_avatar: string | null;
  user_provider: string | null;
  team_ids: number[];
}

export interface Me {
  user: { id: number; provider: string; login: string; display_name: string; avatar: string } | null;
  is_admin: boolean;
  is_mod: boolean;
  banned: boolean;
}

export interface Member {
  member_id: number;
  role: 'owner' | 'rater';
  id: number;
  provider: string;
  login: string;
  display_name: string;
  avatar: string;
}

export interface Group {
  id: number;
  name: string;
  streamer_id: number | null;
  created_at: string;
  streamer_name: string | null;
  members: Member[];
  ratings_count: number;
}

export interface User {
  id: number;
  provider: string;
  provider_id: string;
  login: string;
  display_name: string;
  avatar: string;
  last_seen: string;
  banned: boolean;
  is_mod: boolean;
}

export const sum = (r: Scores) => SCORE_KEYS.reduce((acc, k) => acc + r[k], 0);
/** SPEC.md's moderator reward formula. */
export const moderatorReward = (r: Scores) => {
  const total = sum(r);
  return total > 0 ? Math.round(30 + (total / 70) * 100) : 0;
};
