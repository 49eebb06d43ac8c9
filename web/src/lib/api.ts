/**
 * The page's one way to call the service: a client generated from its OpenAPI document
 * (`npm run build` and `npm run check` generate ./generated/api.ts with openapi-typescript;
 * openapi-fetch calls). Paths, parameters, bodies and answers are typed by the document, so a
 * schema change that the page does not follow fails the check. Errors are thrown as ApiError
 * with the service's stable code, which the page translates (i18n.svelte.ts).
 */
import createClient from 'openapi-fetch';
import type { ErrorCode } from '../../../src/errors.ts';
import type { components, paths } from './generated/api.ts';

export { SCORE_KEYS, type ScoreKey, type Scores } from '../../../src/shared/rules.ts';

type Schemas = components['schemas'];
export type Streamer = Schemas['Streamer'];
export type Comment = Schemas['Comment'];
export type Me = Schemas['Me'];
export type Member = Schemas['TeamMember'];
export type Group = Schemas['TeamWithMembers'];
export type MyTeam = Schemas['MyTeam'];
export type User = Schemas['User'];
export type AuditEntry = Schemas['AuditEntry'];
export type CommunitySummary = Schemas['CommunitySummary'];
export type SyncAnswer = Schemas['SyncState'];
export type Settings = Schemas['Settings'];
export type Notification = Schemas['Notification'];
/** Staff reviews (DECISIONS.md "Staff reviews"). */
export type Review = Schemas['Review'];
export type ReviewsSeen = Schemas['ReviewsSeen'];
export type ReviewsBlind = Schemas['ReviewsBlind'];
export type ReviewQueueItem = Schemas['ReviewQueueItem'];
/** Schedules (DECISIONS.md "Schedules"). */
export type UpcomingStream = Schemas['UpcomingStream'];
export type StreamerSchedule = Schemas['StreamerSchedule'];

type Answer200<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer A } } } };
}
  ? A
  : never;

/**
 * `GET /api/streamers` answers a view's list, one item (with `id`) or a rating history (with
 * `id` and `history=1`): the streamers of the first two.
 */
export const streamersOf = (answer: Answer200<'/api/streamers'>): Streamer[] =>
  (Array.isArray(answer) ? answer : [answer]).filter((x): x is Streamer => 'name' in x);

/** The rating history of a streamer (`id` and `history=1`), oldest first. */
export type RatingChange = Schemas['RatingHistoryEntry'];
export const historyOf = (answer: Answer200<'/api/streamers'>): RatingChange[] =>
  Array.isArray(answer) ? answer.filter((x): x is RatingChange => 'at' in x) : [];

/** The streams live sync recorded (`id` and `streams=1`, issue 28), newest first. */
export type StreamEntry = Schemas['Stream'];
export const streamsOf = (answer: Answer200<'/api/streamers'>): StreamEntry[] =>
  Array.isArray(answer) ? answer.filter((x): x is StreamEntry => 'started_at' in x) : [];

/** `GET /api/comments` answers the comments, or with `mine=1` the ids one likes. */
export const commentsOf = (answer: Answer200<'/api/comments'>): Comment[] =>
  Array.isArray(answer) ? answer : [];
export const likedOf = (answer: Answer200<'/api/comments'>): number[] =>
  Array.isArray(answer) ? [] : answer.liked;

/** `GET /api/rater_groups` answers every team (administrator), or with `my=1` one's own teams. */
export function myTeamsOf(answer: Answer200<'/api/rater_groups'>): MyTeam[] {
  const teams: (Group | MyTeam)[] = answer;
  return teams.filter((g): g is MyTeam => 'role' in g);
}
export function allTeamsOf(answer: Answer200<'/api/rater_groups'>): Group[] {
  const teams: (Group | MyTeam)[] = answer;
  return teams.filter((g): g is Group => 'members' in g);
}

export class ApiError extends Error {
  constructor(
    /** The HTTP status; 0 when the service could not be reached. */
    readonly status: number,
    /** The service's error code; null when the answer was not one of its errors. */
    readonly code: ErrorCode | null,
    /** Until when a timed-out user may not write (asked after a `timed_out` answer). */
    readonly until: string | null = null,
  ) {
    super(code ?? `HTTP ${status}`);
  }
}

/** What the page waits before sending a write again whose key the service still holds (409). */
const IN_USE_PAUSES_MS = [500, 1_000, 2_000, 4_000];
const IN_USE: ErrorCode = 'idempotency_key_in_use';

/** Whether an answer is 409 `idempotency_key_in_use`: the first copy of this write is still running. */
async function stillRunning(answer: Response): Promise<boolean> {
  if (answer.status !== 409) return false;
  const body: unknown = await answer
    .clone()
    .json()
    .catch(() => null);
  return codeOf(body) === IN_USE;
}

/**
 * Every POST carries an `Idempotency-Key` (issue 30 item 11): a write whose answer was lost on
 * the way (a 502 or 504 from the proxy, a broken connection) is sent once more under the same
 * key, and the service stores it once and answers the first answer. A 409
 * `idempotency_key_in_use` (a copy of the write under that key was still running: issue 45
 * item 20) is sent again under the same key after a pause, a few times, until the first copy's
 * answer or its failure frees the key.
 */
async function keyedFetch(request: Request): Promise<Response> {
  if (request.method !== 'POST' || !globalThis.crypto?.randomUUID) return fetch(request);
  request.headers.set('Idempotency-Key', crypto.randomUUID());
  const again = request.clone();
  const first = await fetch(request).catch(() => null);
  let answer = first && first.status !== 502 && first.status !== 504 ? first : await fetch(again.clone());
  for (const pause of IN_USE_PAUSES_MS) {
    if (!(await stillRunning(answer))) break;
    await new Promise((resolve) => setTimeout(resolve, pause));
    answer = await fetch(again.clone());
  }
  return answer;
}

type Client = ReturnType<typeof createClient<paths>>;
let made: Client | undefined;
const madeClient = (): Client =>
  (made ??= createClient<paths>({ baseUrl: '', credentials: 'same-origin', fetch: keyedFetch }));

/**
 * The client, made at its first call: openapi-fetch reads the runtime's fetch when it is made,
 * and the service, which renders the page on the server without calling its API, would load
 * Node.js's fetch client for nothing (4-6 MiB; src/lib/node-http.ts).
 */
export const client = {
  get GET() {
    return madeClient().GET;
  },
  get POST() {
    return madeClient().POST;
  },
  get PUT() {
    return madeClient().PUT;
  },
  get PATCH() {
    return madeClient().PATCH;
  },
  get DELETE() {
    return madeClient().DELETE;
  },
};

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The `code` of an error body (the page translates by it, never by the message). */
const codeOf = (body: unknown): ErrorCode | null =>
  body !== null && typeof body === 'object' && 'code' in body && typeof body.code === 'string'
    ? (body.code as ErrorCode)
    : null;

/**
 * Until when the signed-in user is timed out, asked of the current-user answer once a write is
 * refused with `timed_out` (the refusal is `{error, code}` only); null for a guest, whose
 * refusal is a signed-out user's and names no time.
 */
async function timeoutUntil(): Promise<string | null> {
  try {
    const { data } = await client.GET('/api/oauth/me');
    return data?.user ? data.timeout_until : null;
  } catch {
    return null;
  }
}

let onSessionGone: () => void = () => {};

/**
 * What the page does when the service says its session is gone (`not_logged_in`: signed out in
 * another tab or device, or lapsed): session.svelte.ts asks again who is signed in, so the
 * header and the buttons stop showing someone who no longer is.
 */
export function whenSessionGone(listener: () => void): void {
  onSessionGone = listener;
}

/**
 * The answer of a call made with `client`, or an ApiError: `await call(client.GET(...))`.
 * A redirect or an empty answer gives undefined.
 */
export async function call<T>(request: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch {
    throw new ApiError(0, null);
  }
  if (!answer.response.ok) {
    const code = codeOf(answer.error);
    if (code === 'not_logged_in') onSessionGone();
    throw new ApiError(answer.response.status, code, code === 'timed_out' ? await timeoutUntil() : null);
  }
  return answer.data as T;
}

type Navigable = {
  [P in keyof paths]: paths[P] extends { get: { parameters: unknown } } ? P : never;
}[keyof paths];
type ParamsOf<P extends Navigable> = paths[P]['get']['parameters'];

/**
 * The address of a service operation the browser navigates to rather than calls (sign-in,
 * sign-out: redirects), its path and parameters typed by the document like the calls.
 */
export function pageAddress<P extends Navigable>(path: P, params: ParamsOf<P>): string {
  const { path: values = {}, query = {} } = params as {
    path?: Record<string, string>;
    query?: Record<string, string>;
  };
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
  const search = new URLSearchParams(query).toString();
  return search ? `${filled}?${search}` : filled;
}
