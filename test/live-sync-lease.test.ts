import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { exportData, importData } from '../src/cli/data.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { writeTransaction } from '../src/db/transaction.ts';
import { insertStreamer } from '../src/streamers/queries.ts';
import { dueTimes } from '../src/sync/poller.ts';
import { startApp, useApp } from './helpers/app.ts';
import { createTestDatabase, reopen } from './helpers/database.ts';
import { startFakeLive } from './helpers/fake-live.ts';

const fake = await startFakeLive();
afterAll(() => fake.close());
const t = await useApp(fake.env());
const admin = await t.admin();
beforeEach(() => fake.reset());

const all = async () => (await admin.get('/api/streamers?all=1')).body as Record<string, unknown>[];

describe('channels: provider_a beside provider_b', () => {
  it('POST and the administrator PUT take provider_a like provider_b (sanitized); every item has both keys and the live fields', async () => {
    const res = await admin.post('/api/streamers?admin=1', {
      name: 'Chan One',
      provider_a: ' <b>ChanA</b> ',
    });
    const id = res.body.id as number;
    const find = async () => (await all()).find((s) => s.id === id);
    expect(await find()).toMatchObject({ provider_a: 'ChanA', provider_b: '', avatar: '', viewers: null });
    await admin.put(`/api/streamers?id=${id}`, { r: {}, provider_a: 'other', provider_b: 'kk' });
    expect(await find()).toMatchObject({ provider_a: 'other', provider_b: 'kk' });
    await admin.put(`/api/streamers?id=${id}`, { r: {} });
    expect(await find()).toMatchObject({ provider_a: 'other', provider_b: '' });
    const keys = ['provider_a', 'provider_b', 'avatar', 'viewers', 'live_since', 'synced_at'];
    for (const s of await all()) expect(Object.keys(s)).toEqual(expect.arrayContaining(keys));
  });

  it('an empty channel is the name lower-cased with white space removed', async () => {
    await t.db.deleteFrom('streamers').execute();
    await admin.post('/api/streamers?admin=1', { name: 'Pixel  Paladin', platform: 'provider_a' });
    await admin.post('/api/streamers?admin=1', { name: 'Nova Kicks', platform: 'provider_b' });
    await t.app.liveSync.runOnce();
    expect(fake.callsTo(fake.a, '/streams')[0]?.getAll('user_login')).toEqual(['pixelpaladin']);
    expect(fake.callsTo(fake.b, '/channels')[0]?.getAll('slug')).toEqual(['novakicks']);
  });
});

describe('export and import', () => {
  it('carry the channels and what live sync saw; the sync state and lease stay with the installation', async () => {
    const res = await admin.post('/api/streamers?admin=1', { name: 'Export Me', provider_a: 'exp' });
    fake.a.live.set('exp', { game: 'G', title: 'T', viewers: 7, since: '2026-11-21T20:00:00Z' });
    await t.app.liveSync.runOnce();
    const file = exportData(t.db);
    const copy = await createTestDatabase();
    try {
      await migrateToLatest(copy.db);
      await importData(copy, await file, false);
      const columns = ['provider_a', 'avatar', 'viewers', 'live_since', 'synced_at', 'status'] as const;
      const row = (db: typeof t.db) =>
        db.selectFrom('streamers').select(columns).where('id', '=', res.body.id).executeTakeFirst();
      expect(await row(copy.db)).toEqual(await row(t.db));
      expect(await row(copy.db)).toMatchObject({ provider_a: 'exp', viewers: 7, status: 'live' });
      expect(Object.keys((await file).tables)).not.toContain('sync_state');
    } finally {
      await copy.cleanup();
    }
  });
});

describe('batches', () => {
  it('250 streamers per provider: 3 streams calls of at most 100 logins with first=100, 10 channels calls of at most 25', async () => {
    await t.db.deleteFrom('streamers').execute();
    await writeTransaction(t.database, async (trx) => {
      for (let i = 0; i < 250; i++) {
        for (const platform of ['provider_a', 'provider_b'] as const) {
          await insertStreamer(trx, {
            name: `${platform} streamer ${i}`,
            platform,
            kick_name: platform === 'provider_b' ? `kick${i}` : '',
            provider_a: platform === 'provider_a' ? `twitch${i}` : '',
            added_by: 'admin',
            submitter: '',
            created_at: new Date().toISOString(),
          });
        }
      }
    });
    fake.a.live.set('twitch7', { game: 'G', title: 'T', viewers: 5, since: '2026-11-21T20:00:00Z' });
    await t.app.liveSync.runOnce();

    const streams = fake.callsTo(fake.a, '/streams');
    expect(streams.map((q) => q.getAll('user_login').length)).toEqual([100, 100, 50]);
    expect(streams.every((q) => q.get('first') === '100')).toBe(true);
    expect(new Set(streams.flatMap((q) => q.getAll('user_login'))).size).toBe(250);
    expect(fake.callsTo(fake.a, '/users').every((q) => q.getAll('login').length <= 100)).toBe(true);

    const channels = fake.callsTo(fake.b, '/channels');
    expect(channels).toHaveLength(10);
    expect(channels.every((q) => q.getAll('slug').length === 25)).toBe(true);
    expect(new Set(channels.flatMap((q) => q.getAll('slug'))).size).toBe(250);

    const live = (await all()).filter((s) => s.status === 'live');
    expect(live.map((s) => s.provider_a)).toEqual(['twitch7']);
  });
});

describe('spreading', () => {
  it("a round's batches are spread over the interval with jitter, never in a burst", () => {
    const start = 1_000_000;
    for (const random of [() => 0, () => 0.999, Math.random]) {
      const due = dueTimes(100, start, 60_000, random);
      expect(due).toHaveLength(100);
      expect(due.every((at, k) => k === 0 || at > (due[k - 1] ?? 0))).toBe(true);
      expect(due[0]).toBeGreaterThanOrEqual(start);
      expect(due.at(-1) ?? 0).toBeLessThan(start + 60_000);
      expect((due.at(-1) ?? 0) - (due[0] ?? 0)).toBeGreaterThan(40_000);
    }
    expect(dueTimes(3, start, 60_000, () => 0.5).map((at) => at - start)).toEqual([4000, 20000, 36000]);
  });
});

describe('GET /api/sync', () => {
  it('answers the administrator per provider: enabled, last_ok, last_error, checked', async () => {
    await t.app.liveSync.runOnce();
    const res = await admin.get('/api/sync');
    expect(res.status).toBe(200);
    for (const provider of ['provider_a', 'provider_b']) {
      expect(res.body[provider]).toMatchObject({
        enabled: true,
        interval_seconds: 3600,
        last_ok: expect.any(String),
        checked: 250,
        streamers: 250,
        round_at: expect.any(String),
      });
      expect(res.body[provider]).toHaveProperty('last_error');
    }
  });

  it('is refused to visitors, signed-in users and moderators', async () => {
    const user = await t.signedIn(await t.user());
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    for (const c of [t.client(), user, mod]) {
      const res = await c.get('/api/sync');
      expect([res.status, res.body]).toEqual([401, { error: 'Unauthorized', code: 'unauthorized' }]);
    }
  });
});

describe('one poller across instances (a lease in the database)', () => {
  it('only one instance polls; another takes over when it stops, or when its lease expires', async () => {
    await t.db.deleteFrom('streamers').execute();
    await admin.post('/api/streamers?admin=1', { name: 'Lease Test', platform: 'provider_a' });
    const second = await startApp(fake.env(), { database: reopen(t.database) });
    const third = await startApp(fake.env(), { database: reopen(t.database) });
    try {
      expect(await t.app.liveSync.runOnce()).toBe(true);
      expect(await second.app.liveSync.runOnce()).toBe(false);
      expect(fake.callsTo(fake.a, '/streams')).toHaveLength(1);

      await t.app.liveSync.stop(); // a clean stop hands the lease back
      expect(await second.app.liveSync.runOnce()).toBe(true);
      expect(await third.app.liveSync.runOnce()).toBe(false);
      expect(fake.callsTo(fake.a, '/streams')).toHaveLength(2);

      // The holder dies without handing it back: after half an interval the lease is free.
      third.clock.advance(1800 * 1000 + 1);
      expect(await third.app.liveSync.runOnce()).toBe(true);
      expect(await second.app.liveSync.runOnce()).toBe(false);
      expect(fake.callsTo(fake.a, '/streams')).toHaveLength(3);
      expect((await (await second.admin()).get('/api/sync')).body.provider_a.last_ok).toEqual(
        expect.any(String),
      );
    } finally {
      await second.close();
      await third.close();
      await second.database.cleanup();
      await third.database.cleanup();
    }
  });
});
