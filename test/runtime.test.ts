import { describe, expect, it } from 'vitest';
import { IDLE_SAMPLES } from '../src/plugins/load-shedding.ts';
import { startApp, useApp } from './helpers/app.ts';

const t = await useApp();

/** The log lines at warn or above written since `from`. */
const warnings = (logs: string[], from: number) =>
  logs.slice(from).filter((line) => (JSON.parse(line) as { level: number }).level >= 40);

describe('load shedding in the real app', () => {
  it('a sustained event-loop delay over MAX_EVENT_LOOP_DELAY_MS answers 503 with Retry-After, through the routes', async () => {
    const app = await startApp({ MAX_EVENT_LOOP_DELAY_MS: '100' });
    try {
      const sid = await app.streamer('Busy');
      const comments = () => fetch(`${app.url}/api/comments?streamer_id=${sid}`);
      // A single pause over the limit never sheds, and a delay at the limit is not over it.
      app.loopDelay.sample(150);
      app.loopDelay.sample(100);
      app.loopDelay.sample(150);
      expect(app.app.overloaded()).toBe(false);
      expect((await comments()).status).toBe(200);
      // Two samples in a row over the limit: the service is overloaded.
      app.loopDelay.sample(150);
      expect(app.app.overloaded()).toBe(true);
      const answer = await comments();
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(await answer.json()).toEqual({ error: expect.any(String), code: 'service_unavailable' });
      // The loop is free again: after a calm sample the service answers as usual.
      app.loopDelay.sample(5);
      expect((await comments()).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('an idle service stops sampling its event loop; the next request, routed or answered early, starts it', async () => {
    const app = await startApp({ MAX_EVENT_LOOP_DELAY_MS: '100' });
    try {
      const quietSamples = (n: number, delayMs = 5) => {
        for (let i = 0; i < n; i++) app.loopDelay.sample(delayMs);
      };
      // A routed request wakes it (the list's first answer, which fills the cache).
      expect((await fetch(`${app.url}/api/streamers`)).status).toBe(200);
      expect(app.loopDelay.awake).toBe(true);
      // The sample the request fell in, then IDLE_SAMPLES without one.
      quietSamples(IDLE_SAMPLES);
      expect(app.loopDelay.awake).toBe(true);
      quietSamples(1);
      expect(app.loopDelay.awake).toBe(false);
      // The cached list is answered before routing; that wakes it too.
      const early = app.app.earlyAnswers.served;
      expect((await fetch(`${app.url}/api/streamers`)).status).toBe(200);
      expect(app.app.earlyAnswers.served).toBe(early + 1);
      expect(app.loopDelay.awake).toBe(true);
      // Overloaded, it keeps sampling without requests until the loop is free again.
      quietSamples(IDLE_SAMPLES + 2, 150);
      expect(app.app.overloaded()).toBe(true);
      expect(app.loopDelay.awake).toBe(true);
      quietSamples(1);
      expect(app.app.overloaded()).toBe(false);
      expect(app.loopDelay.awake).toBe(false);
      // Asleep, a sample (a source that still reports) changes nothing.
      quietSamples(3, 150);
      expect(app.app.overloaded()).toBe(false);
      expect((await fetch(`${app.url}/api/settings`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('the page', () => {
  it('page requests log no warning (once: "Reply was already sent, did you forget to return reply")', async () => {
    const admin = await t.admin();
    const sid = await t.streamer('Paged');
    await admin.post(`/api/streamers?id=${sid}&lock=1`, { r: { s: 5 } });
    const from = t.logs.length;
    for (const path of [
      '/',
      '/suggest',
      '/admin',
      '/admin/teams',
      `/s/${sid}`,
      `/s/${sid}-paged`,
      '/s/999999',
      '/?x=1',
    ]) {
      for (const client of [t.client(), admin, t.client({ 'accept-encoding': 'br', accept: 'text/html' })]) {
        const res = await client.get(path);
        expect(res.status, path).toBeLessThan(500);
        expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      }
      expect((await t.client().request('HEAD', path)).status).toBeLessThan(500);
    }
    // A later request answered: whatever the page requests left to log is written by then.
    await t.client().get('/healthz');
    expect(warnings(t.logs, from)).toEqual([]);
  });
});

describe('forwarded headers from an address TRUST_PROXY does not name', () => {
  it('are warned about in the log once, and only once', async () => {
    const from = t.logs.length;
    await t.client().get('/api/oauth/me');
    expect(warnings(t.logs, from)).toEqual([]);
    for (const headers of [{ 'x-forwarded-for': '203.0.113.7' }, { forwarded: 'for=203.0.113.8' }] as Record<
      string,
      string
    >[]) {
      await t.client(headers).get('/api/oauth/me');
      await t.client(headers).get('/');
    }
    const lines = warnings(t.logs, from);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/TRUST_PROXY/);
  });

  it('are not warned about when TRUST_PROXY names the proxy', async () => {
    const app = await startApp({ TRUST_PROXY: '127.0.0.0/8' });
    try {
      await app.client({ 'x-forwarded-for': '203.0.113.7' }).get('/api/oauth/me');
      await app.client({ forwarded: 'for=203.0.113.8' }).get('/');
      expect(warnings(app.logs, 0).filter((l) => l.includes('TRUST_PROXY'))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
