import { afterAll, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import { startFakeLive } from './helpers/fake-live.ts';
import { openStream } from './helpers/sse.ts';

/** DECISIONS.md "Live updates": `live` when live sync changes the status or the viewer count. */
const fake = await startFakeLive();
afterAll(() => fake.close());
const t = await useApp(fake.env());
const admin = await t.admin();
const sync = async () => expect(await t.app.liveSync.runOnce()).toBe(true);

it('live {streamer_id, status, viewers} when the status or the viewers change, and only then', async () => {
  const res = await admin.post('/api/streamers?admin=1', {
    name: 'Live events',
    platform: 'provider_a',
    provider_a: 'liveevents',
  });
  const id = res.body.id as number;
  // In the Public view: a visitor may ask for its events.
  await admin.put(`/api/streamers?id=${id}`, { r: { s: 3 } });
  const s = await openStream(t.url, `/api/events?streamer_id=${id}`);
  try {
    const stream = { game: 'Chess', title: 'Blitz', viewers: 100, since: '2026-11-21T20:00:00Z' };
    fake.a.live.set('liveevents', stream);
    let next = s.next('live');
    await sync();
    expect((await next).data).toEqual({ streamer_id: id, status: 'live', viewers: 100 });
    await sync(); // nothing changed
    fake.a.live.set('liveevents', { ...stream, viewers: 150 });
    next = s.next('live');
    await sync();
    expect((await next).data).toEqual({ streamer_id: id, status: 'live', viewers: 150 });
    fake.a.live.clear();
    next = s.next('live');
    await sync(); // one miss: still live
    await sync();
    expect((await next).data).toEqual({ streamer_id: id, status: 'offline', viewers: null });
    expect(s.events.filter((e) => e.event === 'live')).toHaveLength(3);
  } finally {
    s.close();
  }
});

it('an administrator who sets the status by hand sends the same live event, only when it changes', async () => {
  const res = await admin.post('/api/streamers?admin=1', { name: 'Hand status', platform: 'provider_a' });
  const id = res.body.id as number;
  // In the Public view: a visitor may ask for its events.
  await admin.put(`/api/streamers?id=${id}`, { r: { s: 3 } });
  const s = await openStream(t.url, `/api/events?streamer_id=${id}`);
  try {
    const rate = (status: string) => admin.put(`/api/streamers?id=${id}`, { r: { s: 5 }, status });
    let next = s.next('live');
    expect((await rate('live')).status).toBe(200);
    expect((await next).data).toEqual({ streamer_id: id, status: 'live', viewers: null });
    // The event says what the streamer's item says: live, viewers not known.
    const item = (await admin.get(`/api/streamers?id=${id}`)).body;
    expect([item.status, item.viewers]).toEqual(['live', null]);
    next = s.next('rating');
    await rate('live'); // the same status: a rating event, no live one
    await next;
    next = s.next('live');
    await rate('offline');
    expect((await next).data).toEqual({ streamer_id: id, status: 'offline', viewers: null });
    expect(s.events.filter((e) => e.event === 'live')).toHaveLength(2);
  } finally {
    s.close();
  }
});
