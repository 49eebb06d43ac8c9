import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Discord (a real HTTP server on 127.0.0.1) answering webhook executions as Discord
 * does: 204 on success with the `X-RateLimit-*` headers of the webhook's bucket (5 per 2 s by
 * default), 429 with `retry_after` in the JSON body and `Retry-After` once the bucket is
 * empty, 404 `Unknown Webhook` (code 10015) for a deleted webhook, 401 `Invalid Webhook Token`
 * for a wrong token. It records every POST. Tests script the next answers of a webhook.
 */

/**
 * 'garbled': a 204 whose head carries a header Node.js's parser refuses (a control character in
 * its value): the post arrived, and the sender gets no answer it can read.
 */
export type Scripted = 'ok' | 'rate_limited' | 'server_error' | 'hang' | 'garbled';

export interface Post {
  id: string;
  token: string;
  status: number;
  body: unknown;
  at: number;
}

export interface FakeWebhook {
  id: string;
  token: string;
  url: string;
}

export interface FakeDiscord {
  /** DISCORD_API_URL for the service. */
  apiUrl: string;
  posts: Post[];
  /** A new webhook (its URL holds a fresh token). */
  webhook(): FakeWebhook;
  /** The webhook is deleted: every later post gets 404. */
  remove(id: string): void;
  /** The next answers to this webhook, before its normal behaviour resumes. */
  script(id: string, answers: Scripted[], retryAfterSeconds?: number): void;
  /** Posts that Discord took (204), of one webhook or of all. */
  delivered(id?: string): Post[];
  /** Requests being held open ('hang'). */
  hanging(): number;
  /** Bucket size per 2 seconds (Discord's webhooks: 5). */
  limit: number;
  /** Its time, epoch ms (Date.now by default; a test that moves the app's clock passes that). */
  now: () => number;
  reset(): void;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

export async function startFakeDiscord(): Promise<FakeDiscord> {
  const hooks = new Map<string, { token: string; removed: boolean }>();
  const scripts = new Map<string, { answers: Scripted[]; retryAfter: number }>();
  const buckets = new Map<string, { used: number; resetAt: number }>();
  const held = new Set<ServerResponse>();
  let next = 100_000;

  const fake: FakeDiscord = {
    apiUrl: '',
    posts: [],
    limit: 5,
    now: Date.now,
    webhook() {
      const id = String(next++);
      const token = randomBytes(34).toString('base64url');
      hooks.set(id, { token, removed: false });
      return { id, token, url: `${fake.apiUrl}${id}/${token}` };
    },
    remove(id) {
      const hook = hooks.get(id);
      if (hook) hook.removed = true;
    },
    script(id, answers, retryAfter = 1) {
      scripts.set(id, { answers: [...answers], retryAfter });
    },
    delivered(id) {
      return fake.posts.filter((p) => p.status === 204 && (id === undefined || p.id === id));
    },
    hanging: () => held.size,
    reset() {
      fake.posts.length = 0;
      scripts.clear();
      buckets.clear();
      fake.limit = 5;
    },
    close: async () => {
      for (const res of held) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const rateHeaders = (id: string, remaining: number, resetAfter: number) => ({
    'x-ratelimit-limit': String(fake.limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset-after': resetAfter.toFixed(3),
    'x-ratelimit-reset': ((fake.now() + resetAfter * 1000) / 1000).toFixed(3),
    'x-ratelimit-bucket': `bucket-${id}`,
  });

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const m = /^\/api\/webhooks\/(\d+)\/([^/?]+)/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return json(res, 404, { message: '404: Not Found', code: 0 });
    const [, id = '', token = ''] = m;
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // recorded as text
    }
    const record = (status: number) => fake.posts.push({ id, token, status, body, at: fake.now() });
    const hook = hooks.get(id);
    if (!hook || hook.removed) {
      record(404);
      return json(res, 404, { message: 'Unknown Webhook', code: 10015 });
    }
    if (hook.token !== token) {
      record(401);
      return json(res, 401, { message: 'Invalid Webhook Token', code: 50027 });
    }
    const script = scripts.get(id);
    const scripted = script?.answers.shift();
    if (scripted === 'hang') {
      record(0);
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    if (scripted === 'garbled') {
      record(0);
      res.socket?.end('HTTP/1.1 204 No Content\r\nX-RateLimit-Bucket: b\x01\r\n\r\n');
      return;
    }
    if (scripted === 'server_error') {
      record(500);
      return json(res, 500, { message: '500: Internal Server Error', code: 0 });
    }
    const now = fake.now();
    let bucket = buckets.get(id);
    if (!bucket || bucket.resetAt <= now) buckets.set(id, (bucket = { used: 0, resetAt: now + 2000 }));
    const resetAfter = (bucket.resetAt - now) / 1000;
    if (scripted === 'rate_limited' || bucket.used >= fake.limit) {
      const wait = scripted === 'rate_limited' ? (script?.retryAfter ?? 1) : resetAfter;
      record(429);
      return json(
        res,
        429,
        { message: 'You are being rate limited.', retry_after: wait, global: false },
        {
          ...rateHeaders(id, 0, wait),
          'retry-after': String(Math.ceil(wait)),
          'x-ratelimit-scope': 'user',
        },
      );
    }
    bucket.used++;
    record(204);
    res.writeHead(204, rateHeaders(id, fake.limit - bucket.used, resetAfter));
    res.end();
  };

  const server = createServer((req, res) => {
    answer(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  fake.apiUrl = `http://127.0.0.1:${port}/api/webhooks/`;
  return fake;
}
