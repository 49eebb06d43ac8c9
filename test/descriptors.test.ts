import { describe, expect, it } from 'vitest';
import { MINUTE } from '../src/lib/clock.ts';
import { DESCRIPTORS_SAMPLE_MS, descriptorsShort, procDescriptors } from '../src/plugins/load-shedding.ts';
import { useApp } from './helpers/app.ts';

/**
 * Issue 45 item 21: near the limit of open file descriptors the service sheds load with 503
 * (counted every second of the app's clock, never per request) and says so once a minute.
 * test/faults/descriptors.test.ts runs the real service under a low `ulimit -n`.
 */
const t = await useApp();
const said = () => t.logs.filter((line) => line.includes('out of file descriptors'));

describe('open file descriptors', () => {
  it('this process: the soft limit of /proc/self/limits and the entries of /proc/self/fd', () => {
    const now = procDescriptors();
    expect(now).not.toBeNull();
    expect(now!.open).toBeGreaterThan(2);
    expect(now!.limit).toBeGreaterThanOrEqual(now!.open);
    // A tenth of the limit, at least 16, is kept spare.
    expect([
      descriptorsShort({ open: 920, limit: 1024 }),
      descriptorsShort({ open: 921, limit: 1024 }),
    ]).toEqual([false, true]);
    expect([descriptorsShort({ open: 83, limit: 100 }), descriptorsShort({ open: 84, limit: 100 })]).toEqual([
      false,
      true,
    ]);
  });

  it('near the limit: 503 with Retry-After and the connection closed, one log line a minute; then answers again', async () => {
    expect((await t.client().get('/healthz')).status).toBe(200);
    t.descriptors.now = { open: 1000, limit: 1024 };
    // Nothing is counted per request: the next count is what sheds.
    expect((await t.client().get('/healthz')).status).toBe(200);
    t.clock.advance(DESCRIPTORS_SAMPLE_MS);
    const refused = await fetch(`${t.url}/api/streamers`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(refused.headers.get('connection')).toBe('close');
    expect(await refused.json()).toEqual({ error: 'Service unavailable', code: 'service_unavailable' });
    expect(said()).toHaveLength(1);
    expect(JSON.parse(said()[0]!)).toMatchObject({ level: 50, open_files: 1000, limit: 1024 });
    // Counted every second, said once a minute.
    t.clock.advance(30 * DESCRIPTORS_SAMPLE_MS);
    expect(said()).toHaveLength(1);
    t.clock.advance(MINUTE);
    expect(said()).toHaveLength(2);
    // Descriptors free again: answered at the next count.
    t.descriptors.now = { open: 200, limit: 1024 };
    t.clock.advance(DESCRIPTORS_SAMPLE_MS);
    expect((await t.client().get('/healthz')).status).toBe(200);
    // Where /proc says nothing, nothing is shed.
    t.descriptors.now = null;
    t.clock.advance(DESCRIPTORS_SAMPLE_MS);
    expect((await t.client().get('/healthz')).status).toBe(200);
  });
});
