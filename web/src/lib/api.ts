/** The service's JSON API, called with the session cookie. */
/*
 * The answers' types come from the service's TypeBox schemas (type-only imports: nothing of
 * the server is bundled), so a change there that the page does not follow fails the check.
 */
import type { Static } from 'typebox';
import type { Entry } from '../../../src/audit/schemas.ts';
import type { CommentItem } from '../../../src/comments/schemas.ts';
import type { Summary } from '../../../src/community/schemas.ts';
import type { AdminGroup, MemberItem } from '../../../src/groups/schemas.ts';
import type { Me as MeSchema } from '../../../src/signin/schemas.ts';
import type { StreamerItem } from '../../../src/streamers/schemas.ts';
import type { UserItem } from '../../../src/users/schemas.ts';
import {
  SCORE_KEYS,
  scoreSum,
  moderatorReward as rewardOfSum,
  type Scores,
} from '../../../src/shared/rules.ts';

export { SCORE_KEYS };
export type { Scores };
export type { ScoreKey } from '../../../src/shared/rules.ts';

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

export type Streamer = StreamerItem;
export type Comment = CommentItem;
export type Me = Static<typeof MeSchema>;
export type Member = Static<typeof MemberItem>;
export type Group = AdminGroup;
export type User = Static<typeof UserItem>;
export type AuditEntry = Static<typeof Entry>;
export type CommunitySummary = Static<typeof Summary>;

export const sum = scoreSum;
/** SPEC.md's moderator reward formula. */
export const moderatorReward = (r: Scores) => rewardOfSum(scoreSum(r));
