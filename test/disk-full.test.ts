import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connect.ts';
import { DISK_FULL_HOLD_MS, FAILURE_LOG_MS } from '../src/db/failures.ts';
import { HEALTH_FRESH_MS } from '../src/health/check.ts';
import { isDiskFull } from '../src/db/dialect.ts';
import { ADMIN_PASSWORD, startApp } from './helpers/app.ts';
import { fillSessions } from './helpers/full-disk.ts';

/**
 * Issue 45 item 19, an operator's day with a full disk: writes answered `500 internal_error`
 * while `/healthz` stayed 200, so a proxy kept sending writes there. A write refused for a full
 * disk answers 503 with `Retry-After`, the log says so once a minute, a metric counts it, and
 * `/healthz` answers 503 until a write commits again or a minute passes. SQLite's
 * `max_page_count` makes a real SQLITE_FULL; PostgreSQL's disk-full error (53100) takes the
 * same path (db/dialect.ts `isDiskFull`).
 */
const TOKEN = 'metrics-token-0123456789abcdef';
const t = await startApp({ METRICS_TOKEN: TOKEN });
afterAll(() => t.close());
const sqlite = t.database.sqlite;

const metric = async () => {
  const text = await (
    await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).text();
  return Number(/^db_errors_total\{kind="disk_full"\} (\d+)$/m.exec(text)?.[1] ?? 'NaN');
};

describe('a full disk', () => {
  it('PostgreSQL and SQLite name it by their codes', () => {
    expect(isDiskFull({ code: 'SQLITE_FULL' })).toBe(true);
    expect(isDiskFull({ code: '53100' })).toBe(true);
    expect(isDiskFull({ code: 'SQLITE_BUSY' })).toBe(false);
    expect(isDiskFull(new Error('x'))).toBe(false);
  });

  it.skipIf(!sqlite)(
    'writes answer 503 with Retry-After and change nothing; /healthz says 503; one log line; counted; room again: both recover',
    async () => {
      const sid = await t.streamer();
      const c = t.client();
      expect((await c.post('/api/comments', { streamer_id: sid, body: 'before it filled' })).status).toBe(
        201,
      );
      expect((await c.get('/healthz')).status).toBe(200);
      const before = await metric();
      // The database may grow no further: the disk is full as far as SQLite can tell.
      const pages = Number(sqlite!.pragma('page_count', { simple: true }));
      sqlite!.pragma(`max_page_count = ${pages}`);
      const bodies: number[] = [];
      let refused = null;
      for (let i = 0; i < 500 && !refused; i++) {
        const r = await c.post('/api/comments', { streamer_id: sid, body: `${i} `.padEnd(1000, 'x') });
        if (r.status === 201) bodies.push(r.body.id as number);
        else refused = r;
      }
      expect(refused?.status).toBe(503);
      expect(refused?.headers.get('retry-after')).toBe('5');
      expect(refused?.body).toEqual({ error: 'Service unavailable', code: 'service_unavailable' });
      const again = await c.post('/api/comments', { streamer_id: sid, body: 'x'.repeat(1000) });
      expect(again.status).toBe(503);
      // A sign-in's session is written after its handler: refused alike, not in the framework's words
      // (the sessions' own pages filled too, so that its row finds no room).
      fillSessions(sqlite!);
      const login = await t.client().post('/api/auth/login', { password: ADMIN_PASSWORD });
      expect(login.status).toBe(503);
      expect(login.headers.get('retry-after')).toBe('5');
      expect(login.body).toEqual({ error: 'Service unavailable', code: 'service_unavailable' });
      expect(login.headers.get('set-cookie')).toBeNull();
      // What was answered 201 is stored; the refused ones are not.
      const stored = await t.db.selectFrom('comments').select('id').where('streamer_id', '=', sid).execute();
      expect(stored).toHaveLength(bodies.length + 1);
      // /healthz: the instance cannot write.
      const health = await c.get('/healthz');
      expect(health.status).toBe(503);
      expect(health.headers.get('retry-after')).toBe('5');
      expect(health.text).toBe('{"error":"Service unavailable","code":"service_unavailable"}');
      // With ?detail=1 it also says which check failed: the log says it once a minute only.
      const detail = await c.get('/healthz?detail=1');
      expect([detail.status, detail.headers.get('retry-after'), detail.body]).toEqual([
        503,
        '5',
        { error: 'Service unavailable', code: 'service_unavailable', failed: 'disk_full' },
      ]);
      expect(t.logs.filter((l) => l.includes('disk full')).length).toBe(1);
      expect((await metric()) - before).toBe(3);
      // Room again: the next write commits, and /healthz is 200 at once.
      sqlite!.pragma('max_page_count = 1073741823');
      sqlite!.prepare("delete from sessions where id like 'fill-%'").run();
      expect((await c.post('/api/comments', { streamer_id: sid, body: 'room again' })).status).toBe(201);
      expect((await c.get('/healthz')).status).toBe(200);
      // Its end is said once, with the requests it refused (stop 96: no line said so).
      const ends = t.logs.filter((l) => l.includes('disk takes writes again'));
      expect(ends.map((l) => (JSON.parse(l) as { failures: number }).failures)).toEqual([3]);
      // Another full disk a minute later is said again; without writes, /healthz recovers after a minute.
      t.clock.advance(60_000);
      sqlite!.pragma(`max_page_count = ${Number(sqlite!.pragma('page_count', { simple: true }))}`);
      let full = 201;
      for (let i = 0; i < 500 && full === 201; i++) {
        full = (await c.post('/api/comments', { streamer_id: sid, body: `${i} `.padEnd(1000, 'y') })).status;
      }
      expect(full).toBe(503);
      expect(t.logs.filter((l) => l.includes('disk full')).length).toBe(2);
      expect((await c.get('/healthz')).status).toBe(503);
      t.clock.advance(DISK_FULL_HOLD_MS);
      expect((await c.get('/healthz')).status).toBe(200);
      sqlite!.pragma('max_page_count = 1073741823');
    },
  );
});

describe('a database that does not answer (an operator walk, stop 93)', () => {
  it.skipIf(!sqlite)(
    'is said in the log once a minute with the requests it failed and their route, not once per request',
    async () => {
      const sid = await t.streamer();
      const c = t.client();
      // Another process holds the write lock, and this one does not wait for it: SQLITE_BUSY.
      const other = openDatabase(`sqlite:${sqlite!.name}`);
      sqlite!.pragma('busy_timeout = 0');
      other.sqlite!.prepare('begin immediate').run();
      const said = () =>
        t.logs
          .filter((l) => l.includes('database unavailable: requests get 503'))
          .map((l) => JSON.parse(l) as { failures: number; route: string; method: string; url?: string });
      try {
        t.clock.advance(FAILURE_LOG_MS);
        for (let i = 0; i < 3; i++) {
          const res = await c.post('/api/comments?x=secret', { streamer_id: sid, body: `while locked ${i}` });
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toBe('5');
        }
        expect(said()).toEqual([
          expect.objectContaining({ failures: 1, method: 'POST', route: '/api/comments' }),
        ]);
        t.clock.advance(FAILURE_LOG_MS);
        expect((await c.post('/api/comments', { streamer_id: sid, body: 'still locked' })).status).toBe(503);
        expect(said().map((l) => l.failures)).toEqual([1, 3]);
        expect(said().some((l) => JSON.stringify(l).includes('secret'))).toBe(false);
      } finally {
        other.sqlite!.prepare('rollback').run();
        await other.db.destroy();
        sqlite!.pragma('busy_timeout = 5000');
      }
      expect((await c.post('/api/comments', { streamer_id: sid, body: 'free again' })).status).toBe(201);
      // The end is said once, with every request it failed (stop 96: no line said so).
      const ends = () => t.logs.filter((l) => l.includes('database answers again'));
      expect(ends().map((l) => (JSON.parse(l) as { failures: number }).failures)).toEqual([4]);
      expect((await c.post('/api/comments', { streamer_id: sid, body: 'and on' })).status).toBe(201);
      expect(ends()).toHaveLength(1);
    },
  );
});

describe('the end of an outage, told by a health check (stop 96)', () => {
  it('a /healthz that the database answers after failures says once that it answers again', async () => {
    const app = await startApp({}, { logLevel: 'info' });
    try {
      const ends = () => app.logs.filter((l) => l.includes('database answers again'));
      // Two requests failed for a database that did not answer (as the error handler counts them).
      app.database.failures.saw('unavailable', app.clock.now().getTime());
      app.database.failures.saw('unavailable', app.clock.now().getTime());
      app.clock.advance(HEALTH_FRESH_MS);
      expect((await app.client().get('/healthz')).status).toBe(200);
      expect(ends().map((l) => (JSON.parse(l) as { failures: number }).failures)).toEqual([2]);
      app.clock.advance(HEALTH_FRESH_MS);
      expect((await app.client().get('/healthz')).status).toBe(200);
      expect(ends()).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
