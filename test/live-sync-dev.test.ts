import { describe, expect, it, vi } from 'vitest';
import { devStream } from '../src/sync/dev-live.ts';
import { devSegments } from '../src/sync/dev-schedule.ts';
import { standInId } from '../src/signin/dev-users.ts';
import { R } from './helpers/streamers.ts';
import { startApp, useApp } from './helpers/app.ts';

const t = await useApp({ DEV_PROVIDERS: 'true', LIVE_SYNC_SECONDS: '3600' });
const admin = await t.admin();

/** Moves the app's clock on, window by window, until the stand-in says `live` of the channel. */
function advanceUntil(channel: string, live: boolean) {
  for (let i = 0; i < 200; i++) {
    if ((devStream(channel, t.clock.now().getTime()) !== null) === live) return;
    t.clock.advance(4 * 60_000);
  }
  throw new Error(`the stand-in never showed ${channel} ${live ? 'live' : 'offline'}`);
}

describe('DEV_PROVIDERS=true serves stand-in live APIs', () => {
  it.each([
    ['provider_a', 'Pixel Paladin', 'pixelpaladin'],
    ['provider_b', 'Nova Kicks', 'novakicks'],
  ] as const)(
    '%s streamers go live and offline with the stand-in, without any account',
    async (platform, name, channel) => {
      const res = await admin.post('/api/streamers?admin=1', { name, platform });
      const id = res.body.id as number;
      const find = async () =>
        ((await admin.get('/api/streamers?all=1')).body as { id: number }[]).find((s) => s.id === id);

      advanceUntil(channel, true);
      expect(await t.app.liveSync.runOnce()).toBe(true);
      const live = await find();
      expect(live).toMatchObject({ status: 'live', viewers: expect.any(Number), game: expect.any(String) });
      expect(live).toMatchObject({ live_since: expect.any(String), synced_at: expect.any(String) });

      advanceUntil(channel, false);
      await t.app.liveSync.runOnce();
      await t.app.liveSync.runOnce();
      expect(await find()).toMatchObject({ status: 'offline', viewers: null, live_since: null });
    },
  );

  it('Twitch stand-in avatars are SVGs served by the service itself', async () => {
    const items = (await admin.get('/api/streamers?all=1')).body as { platform: string; avatar: string }[];
    const avatar = items.find((s) => s.platform === 'provider_a')?.avatar ?? '';
    expect(avatar).toMatch(/\/dev\/live\/avatar\/pixelpaladin\.svg$/);
    const svg = await t.client().get(new URL(avatar).pathname);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(svg.text).toContain('<svg');
  });

  it("Twitch streamers' schedules come from the stand-in's /helix/schedule; one without a schedule gets 404 (none)", async () => {
    const added = async (name: string, channel: string) => {
      const res = await admin.post('/api/streamers?admin=1', { name, provider_a: channel });
      expect((await admin.put(`/api/streamers?id=${res.body.id}`, { r: R(6) })).status).toBe(200);
      return res.body.id as number;
    };
    // The channels' stand-in ids: the first has a weekly schedule, the second none.
    const planned = await added('Sched Host', 'schedhost');
    const unplanned = await added('Planned Pete', 'plannedpete');
    expect(devSegments(String(standInId('plannedpete')), t.clock.now().getTime())).toBeNull();
    // Live sync learns a channel's account id when it is live, and then reads its schedule.
    for (const channel of ['schedhost', 'plannedpete']) {
      advanceUntil(channel, true);
      expect(await t.app.liveSync.runOnce()).toBe(true);
    }
    const expected = devSegments(String(standInId('schedhost')), t.clock.now().getTime()) ?? [];
    const schedule = (await t.client().get(`/api/streamers?id=${planned}&schedule=1`)).body;
    expect(schedule.source).toBe('provider');
    expect(schedule.segments.length).toBeGreaterThan(0);
    expect(schedule.segments[0]).toMatchObject({
      start: new Date(expected[0]!.start_time).toISOString(),
      title: expected[0]!.title,
      game: expected[0]!.category?.name,
    });
    const item = (await t.client().get(`/api/streamers?id=${planned}`)).body;
    expect(item.next_stream).toBe(schedule.segments.find((s: { canceled: boolean }) => !s.canceled).start);
    const upcoming = (await t.client().get('/api/schedule?days=14')).body as { streamer_id: number }[];
    expect(upcoming.some((u) => u.streamer_id === planned)).toBe(true);
    expect(await t.client().get(`/api/streamers?id=${unplanned}&schedule=1`)).toMatchObject({
      body: { segments: [], source: null },
    });
  });

  it('the stand-in live APIs refuse calls without its app token', async () => {
    const res = await t.client().get('/dev/live/provider_a/streams?user_login=x');
    expect(res.status).toBe(401);
  });
});

describe('the timer', () => {
  it('a started service polls by itself within one interval', async () => {
    const quick = await startApp({ DEV_PROVIDERS: 'true', LIVE_SYNC_SECONDS: '2' });
    try {
      const res = await (await quick.admin()).post('/api/streamers?admin=1', { name: 'By Itself' });
      await vi.waitFor(
        async () => {
          const row = await quick.db
            .selectFrom('streamers')
            .select('synced_at')
            .where('id', '=', res.body.id)
            .executeTakeFirst();
          expect(row?.synced_at).toEqual(expect.any(String));
        },
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      await quick.close();
    }
  });
});
