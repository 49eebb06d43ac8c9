import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../src/lib/clock.ts';
import { app, database, dir, tool } from './helpers/cli.ts';
import { startFakeLive } from './helpers/fake-live.ts';

const fake = await startFakeLive();
afterAll(() => fake.close());

// Stream history (issue 28) goes out with the rest of the data and comes back in.
describe('streamer-rating export and import carry the stream history', { timeout: 120_000 }, () => {
  it('streams, samples and the last-30-days figures answer the same after export and import', async () => {
    const source = await database();
    const a = await app(source, fake.env());
    const admin = await a.admin();
    const res = await admin.post('/api/streamers?admin=1', {
      name: 'Exported Live',
      platform: 'provider_a',
      provider_a: 'exportedlive',
    });
    const id = res.body.id as number;
    fake.a.live.set('exportedlive', {
      game: 'Chess',
      title: 'Blitz',
      viewers: 40,
      since: new Date(a.clock.now().getTime() - MINUTE).toISOString(),
    });
    await a.app.liveSync.runOnce();
    fake.a.live.set('exportedlive', {
      game: 'Go',
      title: 'Slow',
      viewers: 60,
      since: new Date(a.clock.now().getTime() - MINUTE).toISOString(),
    });
    await a.app.liveSync.runOnce();
    const streams = (await admin.get(`/api/streamers?id=${id}&streams=1&all=1`)).body;
    const item = (await admin.get(`/api/streamers?id=${id}&all=1`)).body;
    expect(streams).toHaveLength(1);
    expect(streams[0].samples).toHaveLength(2);
    expect(item.stats_30d).toMatchObject({ streams: 1, avg_viewers: 50, peak_viewers: 60 });

    const file = join(dir, 'history.json');
    expect((await tool(source, ['export', file])).code).toBe(0);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    expect(exported.tables.streams).toHaveLength(1);
    expect(exported.tables.stream_samples).toHaveLength(2);
    expect(exported.tables.stream_stats).toHaveLength(1);
    // Numbers on both databases: PostgreSQL's driver reads a bigint as text (an operator's walk).
    expect([exported.tables.streams[0].viewer_sum, exported.tables.stream_stats[0].viewer_sum]).toEqual([
      100, 100,
    ]);

    const target = await database();
    const imp = await tool(target, ['import', file]);
    expect(imp.code, imp.err).toBe(0);
    const b = await app(target);
    const admin2 = await b.admin();
    const again = (await admin2.get(`/api/streamers?id=${id}&streams=1&all=1`)).body;
    expect(again.map((s: { minutes: number }) => ({ ...s, minutes: 0 }))).toEqual(
      streams.map((s: { minutes: number }) => ({ ...s, minutes: 0 })),
    );
    expect((await admin2.get(`/api/streamers?id=${id}&all=1`)).body.stats_30d).toEqual(item.stats_30d);
  });

  it('a file from before the history existed imports, with no history', async () => {
    const source = await database();
    await tool(source, ['demo']);
    const file = join(dir, 'old.json');
    await tool(source, ['export', file]);
    const old = JSON.parse(readFileSync(file, 'utf8'));
    delete old.tables.streams;
    delete old.tables.stream_samples;
    delete old.tables.stream_stats;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, JSON.stringify(old));
    const target = await database();
    const imp = await tool(target, ['import', file]);
    expect(imp.code, imp.err).toBe(0);
  });
});
