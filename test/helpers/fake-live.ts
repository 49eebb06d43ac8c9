import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readForm } from './fake-http.ts';

/**
 * Fake Twitch (provider_a, helix) and Kick (provider_b, public v1) live-status APIs as one
 * real HTTP server on 127.0.0.1, answering in PROVIDERS.md's shapes. Each is scripted per
 * test: which channels are live, and how the next API calls fail.
 */

export type Mode =
  | 'ok'
  | 'error_500'
  | 'rate_limited' // 429 with Ratelimit-Reset (Twitch) or Retry-After (Kick)
  | 'unauthorized_once' // the current token stops working: one 401, then a new token works
  | 'unauthorized' // every token is refused (a revoked application)
  | 'html_403' // a Cloudflare block page
  | 'not_json' // 200 with text that is not JSON
  | 'hang' // never answers
  | 'wrong_data' // Kick's bug: an answer with other channels' data
  | 'last_point'; // Twitch answers, with Ratelimit-Remaining 0 until resetAt

export interface Stream {
  game: string;
  title: string;
  viewers: number;
  since: string;
}

/** A Twitch schedule segment as PROVIDERS.md's "schedule" row shows it. */
export interface FakeSegment {
  id: string;
  start_time: string;
  end_time: string;
  title: string;
  canceled_until: string | null;
  category: { id: string; name: string } | null;
  is_recurring: boolean;
}

export interface FakeSchedule {
  segments: FakeSegment[];
  vacation: { start_time: string; end_time: string } | null;
}

export interface FakeApi {
  clientId: string;
  clientSecret: string;
  mode: Mode;
  /** Live channels (lower-cased login or slug). */
  live: Map<string, Stream>;
  /** API calls: path and query, in order, and when (ms since the epoch: the bench counts per minute). */
  calls: { path: string; query: URLSearchParams; at: number }[];
  tokenCalls: number;
  /** Every token handed out, to search answers, logs and the database for. */
  issued: string[];
  /** Unix time (seconds) sent as Ratelimit-Reset with a 429. */
  resetAt: number;
  /**
   * The account id behind a channel (lower-cased login or slug), as the provider answers it:
   * Twitch's `/users` `id` (a string), Kick's `broadcaster_user_id` (an integer). A channel not
   * set here has a stable id made from its name.
   */
  ids: Map<string, string>;
  /** Twitch schedules by broadcaster id (`/helix/schedule`); absent: 404 "segments were not found". */
  schedules: Map<string, FakeSchedule>;
  /** `/helix/schedule` answers 429 (with Ratelimit-Reset `resetAt`) while set. */
  scheduleLimited: boolean;
}

/** The account id the fake answers for a channel. */
export function accountIdOf(api: FakeApi, channel: string): string {
  const set = api.ids.get(channel);
  if (set !== undefined) return set;
  let h = 7;
  for (const ch of channel) h = (h * 31 + (ch.codePointAt(0) ?? 0)) % 1_000_000_007;
  return String(100_000 + h);
}

export interface FakeLive {
  url: string;
  a: FakeApi;
  b: FakeApi;
  /** The environment that points the service's live sync at these fakes. */
  env(): Record<string, string>;
  /** Calls of one endpoint (`/streams`, `/users`, `/channels`). */
  callsTo(api: FakeApi, path: string): URLSearchParams[];
  reset(): void;
  close(): Promise<void>;
}

const fresh = (id: string): FakeApi => ({
  clientId: `live-client-${id}`,
  clientSecret: `live-secret-${id}-${randomBytes(6).toString('hex')}`,
  mode: 'ok',
  live: new Map(),
  calls: [],
  tokenCalls: 0,
  issued: [],
  resetAt: 0,
  ids: new Map(),
  schedules: new Map(),
  scheduleLimited: false,
});

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const CLOUDFLARE = `<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head>
<body><h1>Sorry, you have been blocked</h1></body></html>`;

export async function startFakeLive(): Promise<FakeLive> {
  const a = fresh('a');
  const b = fresh('b');
  const valid = new Set<string>();
  const hanging = new Set<ServerResponse>();

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const api = url.pathname.startsWith('/a/') ? a : b;
    const twitch = api === a;

    if (req.method === 'POST' && url.pathname.endsWith('/token')) {
      const form = await readForm(req);
      api.tokenCalls++;
      if (
        form.grant_type !== 'client_credentials' ||
        form.client_id !== api.clientId ||
        form.client_secret !== api.clientSecret
      ) {
        return send(res, 400, { status: 400, message: 'invalid client' });
      }
      const token = `tok-${twitch ? 'a' : 'b'}-${randomBytes(12).toString('hex')}`;
      api.issued.push(token);
      valid.add(token);
      return send(res, 200, { access_token: token, expires_in: 5000, token_type: 'bearer' });
    }

    const path = url.pathname.replace(/^\/(a\/helix|b\/v1)/, '');
    api.calls.push({ path, query: url.searchParams, at: Date.now() });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (api.mode === 'unauthorized_once') {
      valid.delete(token);
      api.mode = 'ok';
    }
    if (
      api.mode === 'unauthorized' ||
      !valid.has(token) ||
      (twitch && req.headers['client-id'] !== api.clientId)
    ) {
      return send(res, 401, { error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' });
    }
    switch (api.mode) {
      case 'error_500':
        return send(res, 500, { error: 'Internal Server Error', status: 500 });
      case 'rate_limited':
        return send(
          res,
          429,
          { error: 'Too Many Requests', status: 429 },
          twitch
            ? { 'ratelimit-remaining': '0', 'ratelimit-reset': String(api.resetAt) }
            : { 'retry-after': '30' },
        );
      case 'html_403':
        res.writeHead(403, { 'content-type': 'text/html; charset=UTF-8' });
        return res.end(CLOUDFLARE);
      case 'not_json':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('upstream connect error');
      case 'hang':
        hanging.add(res);
        return;
    }
    const asked = url.searchParams.getAll(twitch ? (path === '/users' ? 'login' : 'user_login') : 'slug');
    if (path === '/streams') {
      const data = asked.flatMap((login) => {
        const s = a.live.get(login);
        return s
          ? [
              {
                user_id: accountIdOf(a, login),
                user_login: login,
                user_name: login,
                game_name: s.game,
                title: s.title,
                viewer_count: s.viewers,
                started_at: s.since,
                type: 'live',
                thumbnail_url: '',
              },
            ]
          : [];
      });
      return send(
        res,
        200,
        { data, pagination: {} },
        {
          'ratelimit-remaining': api.mode === 'last_point' ? '0' : '799',
          'ratelimit-reset': String(api.resetAt),
        },
      );
    }
    if (path === '/users') {
      const data = asked.map((login) => ({
        id: accountIdOf(a, login),
        login,
        display_name: login,
        profile_image_url: `https://cdn.example/${login}.png`,
      }));
      return send(res, 200, { data });
    }
    if (path === '/schedule') {
      const id = url.searchParams.get('broadcaster_id') ?? '';
      const first = Number(url.searchParams.get('first') ?? '20');
      if (!(first >= 1 && first <= 25))
        return send(res, 400, { error: 'Bad Request', status: 400, message: 'first' });
      if (a.scheduleLimited) {
        return send(
          res,
          429,
          { error: 'Too Many Requests', status: 429 },
          { 'ratelimit-remaining': '0', 'ratelimit-reset': String(api.resetAt) },
        );
      }
      const schedule = a.schedules.get(id);
      if (!schedule)
        return send(res, 404, { error: 'Not Found', status: 404, message: 'segments were not found' });
      const from = Number(url.searchParams.get('after') ?? '0');
      const page = schedule.segments.slice(from, from + first);
      const more = from + first < schedule.segments.length;
      const login = [...a.ids.entries()].find(([, v]) => v === id)?.[0] ?? 'someone';
      return send(
        res,
        200,
        {
          data: {
            segments: page,
            broadcaster_id: id,
            broadcaster_name: login,
            broadcaster_login: login,
            vacation: schedule.vacation,
          },
          pagination: more ? { cursor: String(from + first) } : {},
        },
        { 'ratelimit-remaining': '799', 'ratelimit-reset': String(api.resetAt) },
      );
    }
    if (path === '/channels') {
      const slugs = api.mode === 'wrong_data' ? [...asked.slice(1), 'someone-else'] : asked;
      const data = slugs.map((slug) => {
        const s = b.live.get(slug);
        return {
          broadcaster_user_id: Number(accountIdOf(b, slug)),
          slug,
          stream_title: s?.title ?? '',
          category: { id: 1, name: s?.game ?? '' },
          stream: {
            is_live: Boolean(s),
            viewer_count: s?.viewers ?? 0,
            start_time: s?.since ?? '0001-01-01T00:00:00Z',
          },
        };
      });
      return send(res, 200, { data, message: 'OK' });
    }
    send(res, 404, { message: 'Not found' });
  };
  const server = createServer((req, res) => void answer(req, res));

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    a,
    b,
    env: () => ({
      PROVIDER_A_CLIENT_ID: a.clientId,
      PROVIDER_A_CLIENT_SECRET: a.clientSecret,
      PROVIDER_A_TOKEN_URL: `${url}/a/token`,
      PROVIDER_A_API_URL: `${url}/a/helix`,
      PROVIDER_B_CLIENT_ID: b.clientId,
      PROVIDER_B_CLIENT_SECRET: b.clientSecret,
      PROVIDER_B_TOKEN_URL: `${url}/b/token`,
      PROVIDER_B_API_URL: `${url}/b/v1`,
      // Rounds run only when a test calls runOnce(); the timer would wait a quarter of an hour.
      LIVE_SYNC_SECONDS: '3600',
      // A guard against a hang, not a speed limit: a busy machine's first call can take longer
      // than a short limit, and a round that failed so is silent (a test hangs a call on purpose
      // with an app of its own and a short limit, as live-sync.test.ts does).
      PROVIDER_TIMEOUT_MS: '60000',
    }),
    callsTo: (api, path) => api.calls.filter((c) => c.path === path).map((c) => c.query),
    reset: () => {
      for (const api of [a, b]) {
        api.mode = 'ok';
        api.live.clear();
        api.calls = [];
        api.tokenCalls = 0;
        api.ids.clear();
        api.schedules.clear();
        api.scheduleLimited = false;
      }
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
