import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { accountIdOf, type FakeSegment, startFakeLive } from './helpers/fake-live.ts';
import { R } from './helpers/streamers.ts';

/**
 * DECISIONS.md "Fifth wave" → "Schedules": Twitch schedules read by live sync (once an hour, 404
 * = none, pages, 429), hand-kept Kick schedules, `?schedule=1`, `next_stream`, `GET
 * /api/schedule` and the iCalendar feeds. The clock is frozen and moved by the tests.
 */
const fake = await startFakeLive();
afterAll(() => fake.close());
const t = await useApp(fake.env());
t.clock.freeze();
const admin = await t.admin();
beforeEach(() => fake.reset());

const HOUR = 3_600_000;
const at = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();
const iso = (s: string) => new Date(s).toISOString();
let n = 0;

/** A streamer in the Public view (rated) on a platform, with its channel. */
async function streamer(platform: 'provider_a' | 'provider_b', rated = true) {
  const channel = `sch${++n}x${Date.now() % 100000}`;
  const key = platform === 'provider_a' ? 'provider_a' : 'kick_name';
  const res = await admin.post('/api/streamers?admin=1', {
    name: `Sched ${channel}`,
    platform,
    [key]: channel,
  });
  expect(res.status).toBe(201);
  const id = res.body.id as number;
  const keep = platform === 'provider_b' ? { kick_name: channel } : {};
  if (rated) expect((await admin.put(`/api/streamers?id=${id}`, { r: R(6), ...keep })).status).toBe(200);
  return { id, channel, name: `Sched ${channel}` };
}
const segment = (id: string, from: number, to: number, extra: Partial<FakeSegment> = {}): FakeSegment => ({
  id,
  start_time: at(from).replace('.000', ''),
  end_time: at(to).replace('.000', ''),
  title: `Show ${id}`,
  canceled_until: null,
  category: { id: '509658', name: 'Just Chatting' },
  is_recurring: true,
  ...extra,
});
const sync = async () => expect(await t.app.liveSync.runOnce()).toBe(true);
const scheduleOf = async (id: number, c: Client = t.client()) => c.get(`/api/streamers?id=${id}&schedule=1`);
const item = async (id: number, c: Client = t.client()) =>
  ((await c.get('/api/streamers')).body as { id: number; next_stream: string | null }[]).find(
    (s) => s.id === id,
  );
const keep = (c: Client, id: number, segments: unknown) =>
  c.put(`/api/streamers?id=${id}&schedule=1`, { segments });
/** A user who speaks for a Kick streamer: provider_b and the channel as login. */
const speaker = async (channel: string) =>
  t.signedIn(await t.user({ provider: 'provider_b', login: channel }));
const rows = async (id: number) =>
  t.db
    .selectFrom('schedule_segments')
    .selectAll()
    .where('streamer_id', '=', id)
    .orderBy('start_at')
    .execute();

/** iCalendar read back: lines unfolded (RFC 5545 3.1), each VEVENT's properties by name. */
function parseIcs(text: string): Record<string, string>[] {
  const lines = text.replace(/\r\n[ \t]/g, '').split('\r\n');
  expect(lines[0]).toBe('BEGIN:VCALENDAR');
  const events: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') current = {};
    else if (line === 'END:VEVENT' && current) {
      events.push(current);
      current = null;
    } else if (current) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).split(';')[0] ?? '';
      current[name] = line.slice(colon + 1).replace(/\\([,;\\])/g, '$1');
    }
  }
  return events;
}
const icsTime = (s: string) =>
  iso(s)
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

describe('Twitch schedules read by live sync', () => {
  it('segments, canceled, game and vacation are read; source provider; next_stream skips the canceled one', async () => {
    const s = await streamer('provider_a');
    const broadcaster = accountIdOf(fake.a, s.channel);
    fake.a.schedules.set(broadcaster, {
      segments: [
        segment('c1', 1, 3, { canceled_until: at(3) }),
        segment('c2', 5, 8, { category: null }),
        segment('c3', 24 * 20, 24 * 20 + 2),
      ],
      vacation: { start_time: at(48), end_time: at(96) },
    });
    await sync();
    const res = await scheduleOf(s.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      segments: [
        { start: at(1), end: at(3), title: 'Show c1', game: 'Just Chatting', canceled: true },
        { start: at(5), end: at(8), title: 'Show c2', game: '', canceled: false },
      ],
      vacation: { start: at(48), end: at(96) },
      source: 'provider',
    });
    expect((await item(s.id))?.next_stream).toBe(at(5));
    const calls = fake.callsTo(fake.a, '/schedule');
    expect(calls.map((q) => [q.get('broadcaster_id'), q.get('first')])).toEqual([[broadcaster, '25']]);
  });

  it("an untitled segment's calendar entry is named by its game when it has one, else by the streamer alone", async () => {
    const s = await streamer('provider_a');
    fake.a.schedules.set(accountIdOf(fake.a, s.channel), {
      segments: [
        segment('g1', 2, 3, { title: '' }),
        segment('g2', 4, 5, { title: '', category: null }),
        segment('g3', 6, 7),
      ],
      vacation: null,
    });
    await sync();
    const events = parseIcs((await t.client().get(`/s/${s.id}/schedule.ics`)).text);
    expect(events.map((e) => e.SUMMARY)).toEqual([`${s.name}: Just Chatting`, s.name, `${s.name}: Show g3`]);
  });

  it('a 404 means no schedule: no segments, source null, next_stream null', async () => {
    const s = await streamer('provider_a');
    await sync();
    expect(fake.callsTo(fake.a, '/schedule')).toHaveLength(1);
    expect((await scheduleOf(s.id)).body).toEqual({ segments: [], vacation: null, source: null });
    expect((await item(s.id))?.next_stream).toBeNull();
  });

  it('a schedule removed at Twitch (now 404) is removed here at the next read, not kept as after a failure', async () => {
    const s = await streamer('provider_a');
    const broadcaster = accountIdOf(fake.a, s.channel);
    fake.a.schedules.set(broadcaster, { segments: [segment('r1', 30, 32)], vacation: null });
    await sync();
    expect(await rows(s.id)).toHaveLength(1);
    fake.a.schedules.delete(broadcaster);
    t.clock.advance(HOUR + 60_000);
    await sync();
    expect(await rows(s.id)).toEqual([]);
    expect((await scheduleOf(s.id)).body).toEqual({ segments: [], vacation: null, source: null });
  });

  it('follows pagination.cursor: 30 segments over two pages are all kept', async () => {
    const s = await streamer('provider_a');
    const segments = Array.from({ length: 30 }, (_, k) => segment(`p${k}`, 2 + k * 4, 3 + k * 4));
    fake.a.schedules.set(accountIdOf(fake.a, s.channel), { segments, vacation: null });
    await sync();
    const calls = fake.callsTo(fake.a, '/schedule');
    expect(calls.map((q) => q.get('after'))).toEqual([null, '25']);
    expect(await rows(s.id)).toHaveLength(30);
  });

  it('at most once an hour per streamer: no read within the hour, one after it, with the same UIDs', async () => {
    const s = await streamer('provider_a');
    const mine = () =>
      fake
        .callsTo(fake.a, '/schedule')
        .filter((q) => q.get('broadcaster_id') === accountIdOf(fake.a, s.channel));
    fake.a.schedules.set(accountIdOf(fake.a, s.channel), {
      segments: [segment('h1', 30, 32)],
      vacation: null,
    });
    await sync();
    const uids = (await rows(s.id)).map((r) => r.uid);
    t.clock.advance(HOUR - 60_000);
    await sync();
    expect(mine()).toHaveLength(1);
    t.clock.advance(2 * 60_000);
    await sync();
    expect(mine()).toHaveLength(2);
    expect((await rows(s.id)).map((r) => r.uid)).toEqual(uids);
  });

  it('a 429 stops the reads until Ratelimit-Reset; the schedule is read afterwards and live status is kept', async () => {
    const s = await streamer('provider_a');
    fake.a.schedules.set(accountIdOf(fake.a, s.channel), { segments: [segment('r1', 3, 4)], vacation: null });
    fake.a.live.set(s.channel, { game: 'G', title: 'T', viewers: 5, since: at(-1) });
    fake.a.scheduleLimited = true;
    fake.a.resetAt = Math.floor(t.clock.now().getTime() / 1000) + 30;
    await sync();
    expect(((await admin.get(`/api/streamers?id=${s.id}`)).body as { status: string }).status).toBe('live');
    expect(fake.callsTo(fake.a, '/schedule')).toHaveLength(1);
    fake.a.scheduleLimited = false;
    await sync(); // still paused: no call at all
    expect(fake.callsTo(fake.a, '/schedule')).toHaveLength(1);
    expect(fake.callsTo(fake.a, '/streams')).toHaveLength(1);
    t.clock.advance(31_000);
    await sync();
    expect(fake.callsTo(fake.a, '/schedule')).toHaveLength(2);
    expect((await scheduleOf(s.id)).body.source).toBe('provider');
  });
});

describe('hand-kept schedules (provider_b)', () => {
  it('the user who speaks for it replaces every segment; staff too; `title` cut to 140', async () => {
    const s = await streamer('provider_b');
    const me = await speaker(s.channel);
    const long = 'x'.repeat(300);
    expect((await keep(me, s.id, [{ start: at(2), end: at(4), title: long }])).body).toEqual({ ok: true });
    expect((await scheduleOf(s.id)).body).toEqual({
      segments: [{ start: at(2), end: at(4), title: 'x'.repeat(140), game: '', canceled: false }],
      vacation: null,
      source: 'manual',
    });
    // A line break (an API caller's; the editor's field is one line) parts words, it does not glue them.
    expect(
      (await keep(admin, s.id, [{ start: at(6), end: at(7), title: ' עולם\r\nnový\tden\n' }])).status,
    ).toBe(200);
    expect((await rows(s.id)).map((r) => r.title)).toEqual(['עולם nový den']);
    expect((await keep(admin, s.id, [{ start: at(6), end: at(7), title: 'B' }])).status).toBe(200);
    expect((await rows(s.id)).map((r) => r.title)).toEqual(['B']);
    expect((await keep(admin, s.id, [])).status).toBe(200);
    expect((await scheduleOf(s.id)).body).toEqual({ segments: [], vacation: null, source: null });
  });

  it('?schedule=1 shows the next 14 days; with &ahead=1 the 60 a segment may be kept for (its editor)', async () => {
    const s = await streamer('provider_b');
    const days = (n: number) => n * 24;
    const segments = [
      { start: at(2), end: at(4), title: 'Soon' },
      { start: at(days(30)), end: at(days(30) + 2), title: 'A month ahead' },
      { start: at(days(59)), end: at(days(59) + 2), title: 'Nearly two months ahead' },
    ];
    expect((await keep(admin, s.id, segments)).status).toBe(200);
    const titles = async (query: string) =>
      (
        (await t.client().get(`/api/streamers?id=${s.id}&schedule=1${query}`)).body.segments as {
          title: string;
        }[]
      ).map((x) => x.title);
    expect(await titles('')).toEqual(['Soon']);
    expect(await titles('&ahead=1')).toEqual(['Soon', 'A month ahead', 'Nearly two months ahead']);
  });

  it('refused with nothing changed: anonymous 401, someone else 403, banned 403, timed out 403, provider_a 409', async () => {
    const s = await streamer('provider_b');
    await keep(admin, s.id, [{ start: at(2), end: at(3) }]);
    const before = await rows(s.id);
    const ok = [{ start: at(5), end: at(6) }];
    expect((await keep(t.client(), s.id, ok)).status).toBe(401);
    const other = await t.signedIn(await t.user({ provider: 'provider_b', login: `other${n}` }));
    expect((await keep(other, s.id, ok)).body).toMatchObject({ error: 'Not allowed' });
    const bannedUser = await t.user({ provider: 'provider_b', login: s.channel }, { banned: true });
    expect((await keep(await t.signedIn(bannedUser), s.id, ok)).body).toMatchObject({
      error: 'Účet je zablokován',
    });
    const late = await t.user({ provider: 'provider_b', login: s.channel });
    const lateClient = await t.signedIn(late);
    expect((await admin.put(`/api/users?id=${late.id}`, { timeout_hours: 1 })).status).toBe(200);
    const timedOut = await keep(lateClient, s.id, ok);
    expect(timedOut.status).toBe(403);
    expect(timedOut.body).toMatchObject({ error: 'Účet je dočasně omezen' });
    const twitch = await streamer('provider_a');
    expect((await keep(admin, twitch.id, ok)).status).toBe(409);
    expect(await rows(twitch.id)).toEqual([]);
    expect((await keep(admin, 999999, ok)).status).toBe(404);
    expect(await rows(s.id)).toEqual(before);
  });

  const bad: [string, () => unknown][] = [
    [
      '51 segments',
      () => Array.from({ length: 51 }, (_, k) => ({ start: at(k * 2 + 1), end: at(k * 2 + 2) })),
    ],
    [
      'two starting at the same moment',
      () => [
        { start: at(1), end: at(3) },
        { start: at(1), end: at(4) },
      ],
    ],
    ['start not before end', () => [{ start: at(3), end: at(3) }]],
    ['longer than 24 hours', () => [{ start: at(1), end: at(26) }]],
    ['beyond 60 days', () => [{ start: at(24 * 61), end: at(24 * 61 + 1) }]],
    ['already ended', () => [{ start: at(-3), end: at(-1) }]],
    ['not a date', () => [{ start: 'tomorrow', end: at(2) }]],
    ['not a list', () => ({ start: at(1), end: at(2) })],
    ['a title that is not text', () => [{ start: at(1), end: at(2), title: 5 }]],
  ];
  it.each(bad)('%s: 400 Invalid schedule, nothing changed', async (_, segments) => {
    const s = await streamer('provider_b');
    await keep(admin, s.id, [{ start: at(2), end: at(3), title: 'kept' }]);
    const res = await keep(admin, s.id, segments());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid schedule', code: 'invalid_schedule' });
    expect((await rows(s.id)).map((r) => r.title)).toEqual(['kept']);
  });

  it('overlapping segments are kept (the text lists no such rule): 50 of two hours, an hour apart', async () => {
    const s = await streamer('provider_b');
    const segments = Array.from({ length: 50 }, (_, k) => ({ start: at(k + 1), end: at(k + 3) }));
    expect((await keep(admin, s.id, segments)).status).toBe(200);
    expect(await rows(s.id)).toHaveLength(50);
  });

  it('50 segments are accepted', async () => {
    const s = await streamer('provider_b');
    const segments = Array.from({ length: 50 }, (_, k) => ({ start: at(k * 2 + 1), end: at(k * 2 + 2) }));
    expect((await keep(admin, s.id, segments)).status).toBe(200);
    expect(await rows(s.id)).toHaveLength(50);
  });
});

describe('what shows a schedule', () => {
  it('?schedule=1 follows who may see the streamer: outside the Public view 404 for anyone else, staff see it', async () => {
    const s = await streamer('provider_b', false);
    await keep(admin, s.id, [{ start: at(2), end: at(3) }]);
    expect((await scheduleOf(s.id)).status).toBe(404);
    expect((await admin.get(`/api/streamers?id=${s.id}&schedule=1&all=1`)).body.segments).toHaveLength(1);
  });

  it('next_stream changes with a write and with the clock (kept answers follow both)', async () => {
    const s = await streamer('provider_b');
    expect((await item(s.id))?.next_stream).toBeNull();
    await keep(admin, s.id, [
      { start: at(1), end: at(2) },
      { start: at(5), end: at(6) },
    ]);
    expect((await item(s.id))?.next_stream).toBe(at(1));
    expect((await t.client().get(`/api/streamers?id=${s.id}`)).body.next_stream).toBe(at(1));
    const second = at(5);
    t.clock.advance(2 * HOUR + 1000);
    expect((await item(s.id))?.next_stream).toBe(second);
    expect((await t.client().get(`/api/streamers?id=${s.id}`)).body.next_stream).toBe(second);
  });

  it('GET /api/schedule: Public view only, not canceled, within days, earliest first; days 1 to 14', async () => {
    const a = await streamer('provider_b');
    const hidden = await streamer('provider_b', false);
    const tw = await streamer('provider_a');
    fake.a.schedules.set(accountIdOf(fake.a, tw.channel), {
      segments: [segment('x1', 3, 4, { canceled_until: at(4) }), segment('x2', 4, 5)],
      vacation: null,
    });
    await sync();
    await keep(admin, a.id, [
      { start: at(2), end: at(3), title: 'A' },
      { start: at(24 * 9), end: at(24 * 9 + 1) },
    ]);
    await keep(admin, hidden.id, [{ start: at(2), end: at(3) }]);
    const mine = (list: { streamer_id: number }[]) =>
      list.filter((x) => [a.id, hidden.id, tw.id].includes(x.streamer_id));
    const week = await t.client().get('/api/schedule');
    expect(week.status).toBe(200);
    expect(mine(week.body)).toEqual([
      { streamer_id: a.id, streamer_name: a.name, start: at(2), end: at(3), title: 'A', game: '' },
      {
        streamer_id: tw.id,
        streamer_name: tw.name,
        start: at(4),
        end: at(5),
        title: 'Show x2',
        game: 'Just Chatting',
      },
    ]);
    expect(mine((await t.client().get('/api/schedule?days=10')).body)).toHaveLength(3);
    expect((await t.client().get('/api/schedule?days=010')).body).toEqual(
      (await t.client().get('/api/schedule?days=10')).body,
    );
    for (const days of ['0', '15', 'x', '7.5']) {
      const res = await t.client().get(`/api/schedule?days=${days}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_days');
    }
  });

  it('the week and the calendars, once made, come from memory before routing: the same status, headers and bytes', async () => {
    const s = await streamer('provider_b');
    await keep(admin, s.id, [{ start: at(3), end: at(4), title: 'From memory' }]);
    const headersOf = (h: Headers) =>
      [...h.entries()].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)).sort();
    const paths = [
      '/api/schedule',
      '/api/schedule?days=3',
      '/schedule.ics',
      '/schedule.ics?days=14',
      `/s/${s.id}/schedule.ics`,
      `/s/${s.id}/schedule.ics?days=2`,
    ];
    for (const path of paths) {
      for (const headers of [{}, { 'accept-encoding': 'gzip' }] as Record<string, string>[]) {
        const routed = await fetch(t.url + path, { headers });
        const before = t.app.earlyAnswers.served;
        const fast = await fetch(t.url + path, { headers });
        expect(t.app.earlyAnswers.served, `${path} from memory`).toBe(before + 1);
        expect(fast.status, path).toBe(200);
        expect(headersOf(fast.headers), path).toEqual(headersOf(routed.headers));
        const [a, b] = await Promise.all([fast.arrayBuffer(), routed.arrayBuffer()]);
        expect(Buffer.from(a).equals(Buffer.from(b)), path).toBe(true);
      }
    }
    // What the route must see: a session's cookie on the API, another spelling of days, a bad one.
    const before = t.app.earlyAnswers.served;
    const routed = [
      await fetch(`${t.url}/api/schedule`, { headers: { cookie: 'sid=x' } }),
      await fetch(`${t.url}/api/schedule?days=07`),
      await fetch(`${t.url}/schedule.ics?days=15`),
      await fetch(`${t.url}/s/0${s.id}/schedule.ics`),
    ];
    expect(routed.map((r) => r.status)).toEqual([200, 200, 400, 200]);
    expect(t.app.earlyAnswers.served).toBe(before);
    // A write makes them again: the next answer has it, from the route.
    await keep(admin, s.id, [{ start: at(3), end: at(4), title: 'Changed' }]);
    const fresh = await t.client().get(`/s/${s.id}/schedule.ics`);
    expect(fresh.text).toContain('Changed');
    expect(t.app.earlyAnswers.served).toBe(before);
  });

  it('the iCalendar feeds: text/calendar, one VEVENT per segment, stable UID, UTC, SUMMARY, URL', async () => {
    const s = await streamer('provider_b');
    await keep(admin, s.id, [{ start: at(3), end: at(4), title: 'Speedrun' }]);
    const one = await t.client().get(`/s/${s.id}/schedule.ics`);
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toMatch(/^text\/calendar/);
    const [event, ...more] = parseIcs(one.text);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      DTSTART: icsTime(at(3)),
      DTEND: icsTime(at(4)),
      SUMMARY: `${s.name}: Speedrun`,
      URL: expect.stringMatching(new RegExp(`/s/${s.id}(-|$)`)),
    });
    expect(event?.UID).toMatch(/@/);
    const site = parseIcs((await t.client().get('/schedule.ics')).text);
    expect(site.find((e) => e.UID === event?.UID)).toMatchObject({ SUMMARY: `${s.name}: Speedrun` });
    // Kept again unchanged: the same UID.
    await keep(admin, s.id, [{ start: at(3), end: at(4), title: 'Speedrun 2' }]);
    const again = parseIcs((await t.client().get(`/s/${s.id}/schedule.ics`)).text);
    expect(again.map((e) => e.UID)).toEqual([event?.UID]);
    // The calendar's name is iCalendar text as SUMMARY is: `\`, `;` and `,` escaped (an attacker's walk).
    const odd = await streamer('provider_b');
    expect(
      (
        await admin.put(`/api/streamers?id=${odd.id}`, {
          name: 'Semi;Colon, Back\\slash',
          r: R(6),
          kick_name: odd.channel,
        })
      ).status,
    ).toBe(200);
    const named = (await t.client().get(`/s/${odd.id}/schedule.ics`)).text;
    expect(named).toContain('\r\nNAME:Semi\\;Colon\\, Back\\\\slash – ');
    expect(named).toContain('\r\nX-WR-CALNAME:Semi\\;Colon\\, Back\\\\slash – ');
    const hidden = await streamer('provider_b', false);
    expect((await t.client().get(`/s/${hidden.id}/schedule.ics`)).status).toBe(404);
    expect((await t.client().get('/s/x/schedule.ics')).status).toBe(404);
  });
});
