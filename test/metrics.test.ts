import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTransaction } from '../src/db/transaction.ts';
import { tellDiscord } from '../src/discord/queries.ts';
import { DURATION_BUCKETS } from '../src/metrics/collector.ts';
import { startApp, type TestApp } from './helpers/app.ts';
import { dbKind } from './helpers/database.ts';
import { startFakeLive } from './helpers/fake-live.ts';
import { streamsOf } from './helpers/sse.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

/** One sample of the exposition: its labels and value. */
interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** The samples of one metric name in a Prometheus text exposition. */
function samples(text: string, name: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}

const value = (text: string, name: string, labels: Record<string, string> = {}) =>
  samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

/** What an unknown path answers: status, body and headers (the date aside). */
async function answerOf(url: string, headers: Record<string, string | undefined> = {}, method = 'GET') {
  const sent = Object.fromEntries(
    Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const res = await fetch(url, { method, headers: sent });
  const h = Object.fromEntries([...res.headers].filter(([k]) => k !== 'date'));
  return { status: res.status, body: await res.text(), headers: h };
}

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});
const app = async (env: Record<string, string>) => {
  // warn: the list and /healthz are then answered before routing (cache/early.ts).
  const a = await startApp(env, { logLevel: 'warn' });
  apps.push(a);
  return a;
};

describe('GET /metrics without METRICS_TOKEN', () => {
  it('is the 404 of an unknown path, whatever is sent, and nothing is collected', async () => {
    const t = await app({});
    const unknown = await answerOf(`${t.url}/no-such-path`);
    expect(unknown.status).toBe(404);
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }, { authorization: 'Bearer ' }]) {
      expect(await answerOf(`${t.url}/metrics`, headers)).toEqual(unknown);
    }
    expect(t.app.metrics).toBeNull();
    const doc = (await t.client().get('/api/openapi.json')).body;
    const op = doc.paths['/metrics'].get;
    expect(op.tags).toEqual(['Operations']);
    expect(op.description).toContain('Bearer <METRICS_TOKEN>');
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/plain; version=0.0.4; charset=utf-8']);
    expect(t.app.routeList).toContainEqual(
      expect.objectContaining({ url: '/metrics', guard: 'metricsToken' }),
    );
  });
});

describe.runIf(spawnSync('sh', ['-c', 'command -v promtool']).status === 0)(
  "the kit's alert rules (docs/deploy.md points at them)",
  () => {
    it('promtool check rules accepts them, and they use the metrics the service has', () => {
      const rules = readFileSync('deploy/prometheus/streamer-rating.rules.yml', 'utf8');
      const dir = mkdtempSync(join(tmpdir(), 'rules-'));
      try {
        writeFileSync(join(dir, 'rules.yml'), rules);
        const check = spawnSync('promtool', ['check', 'rules', join(dir, 'rules.yml')], { encoding: 'utf8' });
        expect(check.status, check.stdout + check.stderr).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      for (const metric of ['backup_last_success_timestamp_seconds', 'build_info', 'http_requests_total'])
        expect(rules).toContain(metric);
    });
  },
);

describe('GET /metrics with METRICS_TOKEN', async () => {
  const fake = await startFakeLive();
  afterAll(() => fake.close());
  const t = await app({ METRICS_TOKEN: TOKEN, ...fake.env() });
  const scrape = async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return { res, text: await res.text() };
  };

  it.runIf(spawnSync('sh', ['-c', 'command -v promtool']).status === 0)(
    'promtool check metrics finds nothing to say about a scrape (no gauge named _total)',
    async () => {
      await fetch(`${t.url}/api/streamers`);
      const { text } = await scrape();
      const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      expect(`${check.stdout}${check.stderr}`.trim()).toBe('');
      expect(check.status).toBe(0);
      expect(text).toMatch(/^nodejs_active_handles_all \d+$/m);
      expect(text).not.toMatch(/^nodejs_active_\w+_total/m);
    },
  );

  it('answers only the right bearer token; anything else is the 404 of an unknown path', async () => {
    const unknown = await answerOf(`${t.url}/no-such-path`);
    const wrong = [
      {},
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `bearer ${TOKEN}` },
      { authorization: TOKEN },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
    ];
    for (const headers of wrong)
      expect(await answerOf(`${t.url}/metrics`, headers), JSON.stringify(headers)).toEqual(unknown);
    expect(await answerOf(`${t.url}/metrics`, {}, 'HEAD')).toEqual(
      await answerOf(`${t.url}/no-such-path`, {}, 'HEAD'),
    );
    expect(await answerOf(`${t.url}/metrics`, { authorization: `Bearer ${TOKEN}` }, 'POST')).toEqual(
      await answerOf(`${t.url}/no-such-path`, { authorization: `Bearer ${TOKEN}` }, 'POST'),
    );
    const { res } = await scrape();
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('http_requests_total counts by method, route pattern and status, the answers from memory included', async () => {
    await fetch(`${t.url}/api/streamers`); // rendered once: later visits are answered from memory
    const before = (await scrape()).text;
    const count = (text: string, labels: Record<string, string>) =>
      value(text, 'http_requests_total', labels) ?? 0;
    const served = t.app.earlyAnswers.served;
    for (let i = 0; i < 3; i++) expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await fetch(`${t.url}/api/streamers`)).status).toBe(200);
    expect(t.app.earlyAnswers.served - served).toBeGreaterThanOrEqual(2);
    expect((await fetch(`${t.url}/api/comments?streamer_id=999999`)).status).toBe(404);
    expect((await fetch(`${t.url}/api/users?id=1`)).status).toBe(401);
    expect((await fetch(`${t.url}/no/such/path/12345?x=1`)).status).toBe(404);
    expect((await fetch(`${t.url}/no/such/path/12345`, { method: 'PATCH' })).status).toBe(404);
    const after = (await scrape()).text;
    const delta = (labels: Record<string, string>) => count(after, labels) - count(before, labels);
    expect(delta({ method: 'GET', route: '/healthz', status: '200' })).toBe(3);
    expect(delta({ method: 'GET', route: '/api/streamers', status: '200' })).toBe(2);
    expect(delta({ method: 'GET', route: '/api/comments', status: '404' })).toBe(1);
    expect(delta({ method: 'GET', route: '/api/users', status: '401' })).toBe(1);
    // An unknown address, and a method no route takes, match nothing.
    expect(delta({ method: 'GET', route: '(unmatched)', status: '404' })).toBe(1);
    expect(delta({ method: 'PATCH', route: '(unmatched)', status: '404' })).toBe(1);
    // Label values are route patterns, never the raw URL: nothing a client sends becomes a series.
    const routes = new Set(samples(after, 'http_requests_total').map((s) => s.labels.route));
    for (const route of routes)
      expect(route === '(unmatched)' || t.app.routeList.some((r) => r.url === route), route).toBe(true);
    // Only the series names and labels: a sample's value may hold any digits.
    const series = after
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.slice(0, line.lastIndexOf(' ')));
    expect(series.join('\n')).not.toMatch(/12345|streamer_id|no\/such/);
  });

  it('a route with a parameter is one series under its pattern', async () => {
    const pattern = t.app.routeList.find((r) => r.method === 'GET' && /[:*]/.test(r.url))?.url;
    expect(pattern).toBeDefined();
    const path = (id: number) => pattern!.replace(/:\w+/g, `${id}-x`).replace('*', `page-${id}`);
    const before =
      value((await scrape()).text, 'http_request_duration_seconds_count', { route: pattern! }) ?? 0;
    for (const id of [101, 202, 303]) await fetch(`${t.url}${path(id)}`);
    const text = (await scrape()).text;
    expect(value(text, 'http_request_duration_seconds_count', { route: pattern! })).toBe(before + 3);
    expect(text).not.toMatch(/101-x|202-x|page-303/);
  });

  it('http_request_duration_seconds is a histogram by route: cumulative buckets, +Inf equal to the count', async () => {
    for (let i = 0; i < 4; i++) await fetch(`${t.url}/api/settings`);
    const text = (await scrape()).text;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    const buckets = samples(text, 'http_request_duration_seconds_bucket').filter(
      (s) => s.labels.route === '/api/settings',
    );
    expect(buckets.map((b) => b.labels.le)).toEqual([...DURATION_BUCKETS.map(String), '+Inf']);
    const counts = buckets.map((b) => b.value);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    const total = value(text, 'http_request_duration_seconds_count', { route: '/api/settings' });
    expect(total).toBeGreaterThanOrEqual(4);
    expect(counts.at(-1)).toBe(total);
    const sum = value(text, 'http_request_duration_seconds_sum', { route: '/api/settings' })!;
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(total! * 10);
    expect(samples(text, 'http_request_duration_seconds_bucket').every((s) => !('method' in s.labels))).toBe(
      true,
    );
  });

  it('live_sync_checks_total counts calls to each provider by result', async () => {
    const add = await (
      await t.admin()
    ).post('/api/streamers?admin=1', {
      name: 'Metrics Live',
      platform: 'provider_a',
      provider_a: 'metricslive',
    });
    expect(add.status).toBe(201);
    const checks = (text: string, result: string) =>
      value(text, 'live_sync_checks_total', { provider: 'provider_a', result }) ?? 0;
    const before = (await scrape()).text;
    expect(await t.app.liveSync.runOnce()).toBe(true);
    fake.a.mode = 'error_500';
    expect(await t.app.liveSync.runOnce()).toBe(true);
    fake.a.mode = 'ok';
    const after = (await scrape()).text;
    expect(checks(after, 'ok') - checks(before, 'ok')).toBe(1);
    expect(checks(after, 'status') - checks(before, 'status')).toBe(1);
  });

  it('process metrics: resident memory and event-loop lag', async () => {
    const text = (await scrape()).text;
    expect(value(text, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 2 ** 20);
    expect(value(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it.runIf(dbKind === 'postgres')(
    'db_pool_waiting counts queries waiting for a PostgreSQL connection',
    async () => {
      expect(value((await scrape()).text, 'db_pool_waiting')).toBe(0);
      // The test pool has 5 connections: 12 queries waiting for a lock this test holds leave
      // 7 waiting for a connection, for as long as the test holds it.
      const holder = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await holder.connect();
      const key = Math.floor(Math.random() * 2 ** 31);
      await holder.query('select pg_advisory_lock($1)', [key]);
      const held = Array.from({ length: 12 }, () => sql`select pg_advisory_xact_lock(${key})`.execute(t.db));
      try {
        await expect
          .poll(async () => value((await scrape()).text, 'db_pool_waiting'), { timeout: 10_000 })
          .toBeGreaterThanOrEqual(5);
      } finally {
        await holder.query('select pg_advisory_unlock($1)', [key]);
        await holder.end();
        await Promise.all(held);
      }
    },
  );

  it.runIf(dbKind === 'sqlite')('db_pool_waiting is not reported on SQLite (no pool)', async () => {
    expect((await scrape()).text).not.toContain('db_pool_waiting');
  });

  it('event_streams_open counts open event streams; deliverer_queue_depth what Discord has still to send', async () => {
    const sid = await t.streamer(undefined, { s: 3 });
    const open = async () => value((await scrape()).text, 'event_streams_open');
    const before = (await open()) ?? 0;
    const stream = await streamsOf(t.url)(`/api/events?streamer_id=${sid}`);
    expect(await open()).toBe(before + 1);
    stream.close();
    await expect.poll(open).toBe(before);
    // The sender stopped, two messages for Discord wait in the log past its cursor.
    await t.app.discord.stop();
    const depth = async () => value((await scrape()).text, 'deliverer_queue_depth', { deliverer: 'discord' });
    const waiting = await t.app.discord.backlog();
    const embed = {
      title: 'x',
      path: '/',
      description: 'y',
      color: 0,
      timestamp: t.clock.now().toISOString(),
    };
    await writeTransaction(t.app.database, async (trx) => tellDiscord(trx, 'rated', [embed, embed]));
    // Read at one scrape, reported at the next.
    await expect.poll(depth).toBe(waiting + 2);
  });
});
