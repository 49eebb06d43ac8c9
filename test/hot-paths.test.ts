import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMPRESS_FROM, jsonAnswer } from '../src/cache/answer.ts';
import { AnswerCache, REFINE_AFTER_MS, SWEEP_EVERY_MS } from '../src/cache/answers.ts';
import { HEALTH_FRESH_MS, sharedCheck } from '../src/health/check.ts';
import { dueMailQuery } from '../src/mail/queries.ts';
import { dueQuery } from '../src/push/outbox.ts';
import { claimQuery } from '../src/delivery/rows.ts';
import { Session } from '../src/sessions/session.ts';
import { listQuery } from '../src/streamers/queries.ts';
import { itemsKey, viewKey } from '../src/streamers/views.ts';
import { expectSecurityHeaders } from './helpers/headers.ts';
import { startApp, TestClock, useApp } from './helpers/app.ts';
import { queryPlan } from './helpers/plan.ts';

const t = await useApp();

describe('/healthz under load and on a bad day', () => {
  it('answers 503 with Retry-After once the database stops answering, and says why in the log', async () => {
    const app = await startApp();
    try {
      expect((await app.client().get('/healthz')).status).toBe(200);
      if (app.database.sqlite) app.database.sqlite.close();
      else await app.db.destroy();
      // A success is remembered for HEALTH_FRESH_MS, never longer.
      app.clock.advance(HEALTH_FRESH_MS);
      const res = await app.client().get('/healthz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'Service unavailable', code: 'service_unavailable' });
      expect(res.headers.get('retry-after')).toBe('5');
      expectSecurityHeaders(res.headers);
      expect(app.logs.some((l) => l.includes('health check: database unavailable'))).toBe(true);
      // A load balancer asking every few seconds gets its 503s; the log says it once a minute (stop 96).
      app.clock.advance(HEALTH_FRESH_MS);
      expect((await app.client().get('/healthz')).status).toBe(503);
      expect(app.logs.filter((l) => l.includes('health check: database unavailable'))).toHaveLength(1);
      // With ?detail=1 it says which check failed; the plain answer stays as SPEC.md has it.
      const detail = await app.client().get('/healthz?detail=1');
      expect([detail.status, detail.body]).toEqual([
        503,
        { error: 'Service unavailable', code: 'service_unavailable', failed: 'unavailable' },
      ]);
      expect(res.text).toBe('{"error":"Service unavailable","code":"service_unavailable"}');
    } finally {
      await app.close().catch(() => {});
    }
  });

  it('concurrent checks share one query; a failure is not remembered', async () => {
    const clock = new TestClock();
    clock.freeze();
    let calls = 0;
    let fail = false;
    let answer = () => {};
    const check = sharedCheck(async () => {
      calls++;
      await new Promise<void>((resolve) => (answer = resolve));
      if (fail) throw new Error('down');
    }, clock);
    const waiting = Array.from({ length: 20 }, () => check() ?? Promise.resolve());
    answer();
    await Promise.all(waiting);
    expect(calls).toBe(1);
    // Fresh: no query at all, for HEALTH_FRESH_MS.
    expect(check()).toBeUndefined();
    clock.advance(HEALTH_FRESH_MS - 1);
    expect(check()).toBeUndefined();
    clock.advance(1);
    fail = true;
    const failed = check();
    answer();
    await expect(failed).rejects.toThrow('down');
    const again = check();
    answer();
    await expect(again).rejects.toThrow('down');
    expect(calls).toBe(3);
  });

  it("on SQLite a stale check is made at once and /healthz is still answered before routing; PostgreSQL's goes through the route", async () => {
    const app = await startApp({}, { logLevel: 'warn' });
    app.clock.freeze();
    try {
      expect((await app.client().get('/healthz')).status).toBe(200);
      app.clock.advance(HEALTH_FRESH_MS);
      const before = app.app.earlyAnswers.served;
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      expect(app.app.earlyAnswers.served).toBe(before + (app.database.sqlite ? 1 : 0));
      // A database that stops answering: the same check fails, and the route says so.
      if (app.database.sqlite) app.database.sqlite.close();
      else await app.db.destroy();
      app.clock.advance(HEALTH_FRESH_MS);
      expect((await fetch(`${app.url}/healthz`)).status).toBe(503);
    } finally {
      await app.close().catch(() => {});
    }
  });

  it('a clock set back makes the last answer stale, not fresh until the clock catches up', async () => {
    const clock = new TestClock();
    clock.freeze();
    let calls = 0;
    const check = sharedCheck(async () => void calls++, clock);
    await check();
    expect(check()).toBeUndefined();
    clock.advance(-3_600_000);
    await check();
    expect(calls).toBe(2);
  });
});

describe('security headers by kind of answer', () => {
  it('the page gets its own policy with framing and opener isolation; JSON a policy that allows nothing', async () => {
    const page = await t.client().get('/');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expectSecurityHeaders(page.headers);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');

    for (const path of ['/api/streamers', '/healthz', '/api/nope']) {
      const res = await t.client().get(path);
      expectSecurityHeaders(res.headers);
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; /);
    }
  });
});

describe('request logs', () => {
  it('at warn, requests write nothing, and an error line still carries its request id', async () => {
    const app = await startApp({}, { logLevel: 'warn' });
    try {
      await app.client().get('/healthz');
      await app.client().get('/api/streamers');
      expect(app.logs).toEqual([]);
      const sid = await app.streamer('Broken');
      await app.db.schema.dropTable('community_ratings').execute();
      expect((await app.client().get(`/api/community_ratings?streamer_id=${sid}`)).status).toBe(500);
      const line = JSON.parse(app.logs.find((l) => l.includes('unexpected error')) ?? '{}') as Record<
        string,
        unknown
      >;
      expect(line.level).toBe(50);
      expect(line.reqId).toMatch(/^req-/);
      expect(JSON.stringify(line.err)).toMatch(/community_ratings/);
    } finally {
      await app.close();
    }
  });

  it('with LOG_REQUESTS=true at info, every request writes its incoming and completed lines with one request id, and nothing is answered before routing', async () => {
    const app = await startApp({ LOG_REQUESTS: 'true' });
    try {
      await app.client().get('/api/streamers');
      const served = app.app.earlyAnswers.served;
      const before = app.logs.length;
      await app.client().get('/healthz');
      await app.client().get('/api/streamers');
      const lines = app.logs
        .slice(before)
        .map((l) => JSON.parse(l) as { msg: string; reqId: string; req?: { url: string } });
      const incoming = lines.find((l) => l.msg === 'incoming request');
      const completed = lines.find((l) => l.msg === 'request completed');
      expect(incoming?.reqId).toBeTruthy();
      expect(completed?.reqId).toBe(incoming?.reqId);
      expect(lines.filter((l) => l.msg === 'incoming request').map((l) => l.req?.url)).toEqual([
        '/healthz',
        '/api/streamers',
      ]);
      expect(app.app.earlyAnswers.served).toBe(served);

      // Keys in addresses never reach the log: a sign-in's code and state, the e-mails' tokens.
      const secret = 'SecretValue123';
      const logged = app.logs.length;
      for (const path of [
        `/api/oauth/login/provider_a?code=${secret}&state=${secret}`,
        `/api/mail/unsubscribe?token=${secret}`,
        `/api/account/email/confirm?token=${secret}&x=1`,
      ])
        await app.client().get(path);
      const urls = app.logs.slice(logged).join('\n');
      expect(urls).toContain('/api/mail/unsubscribe?token=[redacted]');
      expect(urls).not.toContain(secret);
    } finally {
      await app.close();
    }
  });

  it('at the defaults (LOG_LEVEL info, LOG_REQUESTS unset) no request line is written and the list and /healthz are answered from memory', async () => {
    expect(t.config.logLevel).toBe('info');
    expect(t.config.logRequests).toBe(false);
    // The database check stays fresh while the clock stands still, however slow the machine.
    t.clock.freeze();
    await t.client().get('/api/streamers');
    await t.client().get('/healthz');
    const before = t.logs.length;
    const served = t.app.earlyAnswers.served;
    for (let i = 0; i < 3; i++) {
      expect((await t.client().get('/healthz')).status).toBe(200);
      expect((await t.client().get('/api/streamers')).status).toBe(200);
    }
    expect(t.app.earlyAnswers.served - served).toBe(6);
    expect(t.logs.slice(before)).toEqual([]);
  });
});

describe('sessions read from the cache', () => {
  it('a change works on a copy: the cached data other requests share is untouched', () => {
    const shared = { is_admin: true, admin_at: '2026-01-01T00:00:00.000Z' };
    const session = new Session('cookie', shared, 0, true);
    session.unset('is_admin');
    session.set('oauth_return', '/x');
    expect(shared).toEqual({ is_admin: true, admin_at: '2026-01-01T00:00:00.000Z' });
    expect(session.data).toEqual({ admin_at: '2026-01-01T00:00:00.000Z', oauth_return: '/x' });
    expect(session.dirty).toBe(true);
  });

  it("an expired administrator flag is dropped for that request's session only", async () => {
    const admin = await t.admin();
    expect((await admin.get('/api/auth/check')).body).toEqual({ admin: true });
    // Two reads of the cached row: both still administrator (nothing leaked between them).
    const [a, b] = await Promise.all([admin.get('/api/oauth/me'), admin.get('/api/oauth/me')]);
    expect(a.body.is_admin).toBe(true);
    expect(b.body.is_admin).toBe(true);
    t.clock.advance(13 * 3600 * 1000);
    expect((await admin.get('/api/oauth/me')).body.is_admin).toBe(false);
    t.clock.advance(-13 * 3600 * 1000);
    expect((await admin.get('/api/oauth/me')).body.is_admin).toBe(false);
  });
});

describe('CORS without CORS_ORIGINS', () => {
  it('no answer depends on Origin: no CORS headers, no Vary: Origin, and a preflight gets 405', async () => {
    const res = await t.client({ origin: 'https://elsewhere.example' }).get('/api/streamers');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary') ?? '').not.toMatch(/origin/i);
    const preflight = await t
      .client({ origin: 'https://elsewhere.example', 'access-control-request-method': 'PUT' })
      .request('OPTIONS', '/api/streamers');
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expectSecurityHeaders(preflight.headers);
  });
});

describe('answers from memory before routing', () => {
  /** Everything but the per-answer date and connection headers. */
  const headersOf = (h: Headers) =>
    [...h.entries()].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)).sort();

  it('the public list and /healthz: the same status, headers and bytes as the routes give', async () => {
    const app = await startApp({}, { logLevel: 'warn' });
    app.clock.freeze();
    try {
      await app.streamer('Fast One', { s: 5, g: 5 });
      const first = await app.client().get('/api/streamers');
      const etag = first.headers.get('etag')!;
      const variants: Record<string, string>[] = [
        {},
        { 'accept-encoding': 'br' },
        { 'accept-encoding': 'gzip, deflate' },
        { 'if-none-match': etag },
      ];
      for (const path of ['/api/streamers', '/healthz']) {
        for (const headers of variants) {
          // Through the route first (a cookie sends it there): it renders the list, or checks
          // the database, so that the same request without the cookie can come from memory
          // (a check is fresh for HEALTH_FRESH_MS of the clock, which stands still here).
          const routed = await fetch(app.url + path, { headers: { ...headers, cookie: 'theme=dark' } });
          const before = app.app.earlyAnswers.served;
          const fast = await fetch(app.url + path, { headers });
          expect(app.app.earlyAnswers.served, `${path} ${JSON.stringify(headers)} from memory`).toBe(
            before + 1,
          );
          expect(fast.status).toBe(routed.status);
          expect(headersOf(fast.headers)).toEqual(headersOf(routed.headers));
          const [a, b] = await Promise.all([fast.arrayBuffer(), routed.arrayBuffer()]);
          expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
        }
      }
    } finally {
      await app.close();
    }
  });

  it('a change is in the next answer, and a database that stops answering gets its 503', async () => {
    const app = await startApp({}, { logLevel: 'warn' });
    try {
      await app.client().get('/api/streamers');
      expect((await app.client().get('/api/streamers')).body).toEqual([]);
      await app.streamer('Fresh Face', { s: 7, a: 3 });
      const after = await app.client().get('/api/streamers');
      expect(after.body.map((s: { name: string }) => s.name)).toEqual(['Fresh Face']);
      expect((await app.client().get('/healthz')).status).toBe(200);
      if (app.database.sqlite) app.database.sqlite.close();
      else await app.db.destroy();
      app.clock.advance(HEALTH_FRESH_MS);
      expect((await app.client().get('/healthz')).status).toBe(503);
    } finally {
      await app.close().catch(() => {});
    }
  });

  it('never for a request with a session cookie, whose view may be a team one: the route answers it', async () => {
    const app = await startApp({}, { logLevel: 'warn' });
    try {
      await app.streamer('Rated Public', { s: 5 });
      await app.client().get('/api/streamers');
      const user = await app.user();
      const member = await app.signedIn(user);
      const before = app.app.earlyAnswers.served;
      const res = await member.get('/api/streamers');
      expect(res.status).toBe(200);
      expect(app.app.earlyAnswers.served).toBe(before);
    } finally {
      await app.close();
    }
  });
});

describe('rendered answers', () => {
  const rows = Array.from({ length: 400 }, (_, i) => ({
    id: i + 1,
    name: `Streamer ${i} ${(i * 7919).toString(36)}`,
    channel: `https://twitch.tv/streamer_${i}`,
    total: 400 - i,
  }));
  /** A cache on a stopped clock, with the list kept in it. */
  const keptList = async (content: { current: number }, after = 0) => {
    const clock = new TestClock();
    clock.freeze();
    const cache = new AnswerCache(content, 8 * 2 ** 20, clock);
    clock.advance(after);
    const first = await cache.get('list', (version) => jsonAnswer(rows, version));
    // A request took its brotli (sender.ts), quickly made.
    expect(await cache.form(first, 'br')).toBe(true);
    return { clock, cache, first };
  };
  it('get their brotli redone at quality 11 in the background: smaller, same JSON, same ETag', async () => {
    const { clock, cache, first } = await keptList({ current: 1 });
    const quick = first.br!.length;
    const etag = first.etag;
    clock.advance(REFINE_AFTER_MS + SWEEP_EVERY_MS);
    await cache.refined();
    const later = cache.peek('list')!;
    expect(later.br!.length).toBeLessThan(quick);
    expect(later.etag).toBe(etag);
    expect(JSON.parse(brotliDecompressSync(later.br!).toString())).toEqual(rows);
    expect(later.gzip).toBeNull();
    expect(cache.bytes).toBe(later.identity.length + later.br!.length);
    cache.stop();
  });
  it('only once the answer stayed current for a while: a change within it spares the worker the redo', async () => {
    const content = { current: 1 };
    // Kept half a second before a sweep: that sweep leaves it be.
    const { clock, cache, first } = await keptList(content, SWEEP_EVERY_MS - REFINE_AFTER_MS / 2);
    const quick = first.br!.length;
    clock.advance(REFINE_AFTER_MS / 2);
    await cache.refined();
    expect(cache.peek('list')!.br!.length).toBe(quick);
    // Made stale before its time came: never redone.
    content.current++;
    clock.advance(REFINE_AFTER_MS + SWEEP_EVERY_MS);
    await cache.refined();
    expect(first.br!.length).toBe(quick);
    cache.stop();
  });
  it('the list counts visible comments from an index that holds just them, reading no comment (migration 040)', async () => {
    const plan = await queryPlan(t.database, listQuery(t.db).compile());
    expect(plan).toMatch(
      t.database.sqlite
        ? /COVERING INDEX comments_counted_idx/
        : /Index Only Scan using comments_counted_idx/,
    );
    // The replies in hidden threads it takes off: the hidden comments from their own index (043).
    expect(plan).toMatch(/comments_hidden_idx/);
  });
  it('get a compressed form only when a request takes it; the items read for a card, a page or one streamer make no JSON of the list', async () => {
    const app = await startApp({}, { logLevel: 'warn' });
    app.clock.freeze();
    try {
      const id = await app.streamer('Compressed Late', { s: 5, g: 5 });
      for (const name of ['Another One', 'And A Third']) await app.streamer(name, { s: 4 });
      const plain = { 'accept-encoding': 'identity' };
      for (const path of [`/s/${id}/card.png`, '/', `/api/streamers?id=${id}`, `/s/${id}/comments.xml`]) {
        expect((await fetch(app.url + path, { headers: plain })).status, path).toBe(200);
      }
      expect(app.app.answers.peek(itemsKey('public'))?.value).toHaveLength(3);
      expect(app.app.answers.peek(viewKey('public'))).toBeUndefined();
      expect((await fetch(`${app.url}/api/streamers`, { headers: plain })).status).toBe(200);
      const list = app.app.answers.peek(viewKey('public'))!;
      expect(list.identity.length).toBeGreaterThan(COMPRESS_FROM);
      expect([list.br, list.gzip]).toEqual([null, null]);
      // Three at once, before routing and not: one brotli, counted once among the kept bytes.
      const held = app.app.answers.bytes;
      const br = await Promise.all(
        ([{}, {}, { cookie: 'theme=dark' }] as Record<string, string>[]).map((more) =>
          fetch(`${app.url}/api/streamers`, { headers: { 'accept-encoding': 'br', ...more } }),
        ),
      );
      const bodies = await Promise.all(br.map(async (r) => Buffer.from(await r.arrayBuffer())));
      for (const r of br) expect(r.headers.get('content-encoding')).toBe('br');
      for (const body of bodies)
        expect(JSON.parse(body.toString())).toEqual(JSON.parse(list.identity.toString()));
      expect(app.app.answers.peek(viewKey('public'))).toBe(list);
      expect(list.br).not.toBeNull();
      expect(list.gzip).toBeNull();
      expect(app.app.answers.bytes - held).toBe(list.br!.length);
      const gz = await fetch(`${app.url}/api/streamers`, { headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(app.app.answers.bytes - held).toBe(list.br!.length + list.gzip!.length);
    } finally {
      await app.close();
    }
  });
  it('made stale by a change are let go within a second of the app’s clock, not kept for nobody', async () => {
    const app = await startApp({}, { logLevel: 'warn' });
    try {
      const id = await app.streamer('Kept Then Stale', { s: 5 });
      await app.client().get('/api/streamers');
      await app.client().get(`/api/comments?streamer_id=${id}`);
      const held = app.app.answers.bytes;
      expect(held).toBeGreaterThan(0);
      await app.streamer('A Change');
      expect(app.app.answers.bytes).toBe(held);
      app.clock.advance(SWEEP_EVERY_MS);
      expect(app.app.answers.bytes).toBeLessThan(held);
      expect((await app.client().get('/api/streamers')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe("the outboxes' due rows", () => {
  it("are read in the due index's order for a claim, never all of them read and sorted", async () => {
    const now = '2026-12-04T22:00:00.000Z';
    const queries = [
      dueQuery(t.db, now, 5, []),
      dueQuery(t.db, now, 5, ['https://push.example']),
      dueMailQuery(t.db, now, 5),
    ];
    for (const query of queries) {
      const plan = await queryPlan(t.database, query.compile());
      expect(plan).toMatch(
        t.database.sqlite
          ? /INDEX (push|mail)_outbox_due \(state=\? AND not_before<\?\)/
          : /Index (Only )?Scan using (push|mail)_outbox_due/,
      );
      // SQLite sorts in a temporary b-tree, PostgreSQL in a Sort step: all the due rows, each claim.
      expect(plan).not.toMatch(t.database.sqlite ? /TEMP B-TREE/ : /->\s+Sort\b/);
    }
  });
  it('are claimed by their ids, their state only checked: a claim reads the rows it takes', async () => {
    const ids = Array.from({ length: 32 }, (_, i) => i + 1);
    for (const table of ['push_outbox', 'mail_outbox', 'discord_outbox'] as const) {
      const plan = await queryPlan(
        t.database,
        claimQuery(t.db, table, ids, 'holder', '2026-12-04').compile(),
      );
      expect(plan, table).toMatch(t.database.sqlite ? /INTEGER PRIMARY KEY/ : new RegExp(`${table}_pkey`));
      expect(plan, table).not.toMatch(new RegExp(`${table}_due`));
    }
  });
});
