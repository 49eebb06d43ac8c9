import { afterAll, beforeEach, describe, expect, it, type MockInstance, onTestFinished, vi } from 'vitest';
import { mayRefill, OutboxDeliverer } from '../src/delivery/deliverer.ts';
import { BUSY_REQUESTS_PER_SECOND } from '../src/lib/traffic.ts';
import { claimRows } from '../src/delivery/rows.ts';
import { createdIn, dueMessages, queueNotifications } from '../src/push/outbox.ts';
import {
  MAX_ATTEMPTS,
  PUSH_GIVE_WAY_PER_SECOND,
  PUSH_TTL_SECONDS,
  RETRY_WAITS_MS,
  VAPID_RENEW_MS,
} from '../src/push/sender.ts';
import { PUSH_LIMITS } from '../src/shared/push.ts';
import { streamerPath } from '../src/shared/rules.ts';
import { DAY, HOUR } from '../src/lib/clock.ts';
import { releaseLease, takeLease } from '../src/db/lease.ts';
import { startApp, type TestApp, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { startStream } from './helpers/live-start.ts';
import { type Device, type PushRequest, startFakePush } from './helpers/fake-push.ts';

/** DECISIONS.md "Fifth wave" → "Push notifications": delivery from the event log, on SQLite and PostgreSQL. */
const fake = await startFakePush();
afterAll(() => fake.close());
const env = {
  PUSH_SERVICE_URL: fake.serviceUrl,
  PUSH_TIMEOUT_MS: '2000',
  METRICS_TOKEN: 'metrics-token-0123456789',
};
const t = await useApp(env);
const admin = await t.admin();
beforeEach(() => fake.reset());

const RATING = { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 };
let seq = 0;
const person = async () => {
  const user = await t.user({ login: `pu${process.pid}x${++seq}`, display_name: `Pusher ${seq}` });
  return { user, c: await t.signedIn(user) };
};
const subscribe = async (c: Client, d: Device, kinds?: string[]) => {
  const res = await c.post('/api/push/subscriptions', {
    endpoint: d.endpoint,
    keys: d.keys,
    ...(kinds ? { kinds } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
};
/** Every instance looks once and finishes what it sends. */
const deliver = async (...apps: TestApp[]) => {
  const all = apps.length > 0 ? apps : [t];
  await Promise.all(all.map((a) => a.app.push.look()));
  await Promise.all(all.map((a) => a.app.push.idle()));
};
/** A followed streamer's stream starts, a minute on. */
async function goLive(streamerId: number, app: TestApp = t) {
  t.clock.advance(60_000);
  return startStream(app, streamerId);
}
async function followed(name = `Pushed ${++seq}`) {
  const id = await t.streamer(name, RATING);
  const fan = await person();
  expect((await fan.c.put(`/api/follows?streamer_id=${id}`, { follow: true })).status).toBe(200);
  return { id, name, fan };
}
const comment = async (c: Client, streamer_id: number, body: string, extra = {}) => {
  const res = await c.post('/api/comments', { streamer_id, body, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
};
const states = async () =>
  (
    await t.db
      .selectFrom('push_outbox')
      .select(['state', 'attempts'])
      .orderBy('id', 'desc')
      .limit(1)
      .execute()
  )[0];
let quiet: MockInstance | undefined;
/**
 * Holds the sender's lease for the test, and keeps this file's instance from looking (an
 * instance without the lease sends its share of the due rows): nothing is sent until it is
 * handed back.
 */
const hold = async () => {
  quiet = vi.spyOn(t.app.push, 'look').mockResolvedValue();
  // The look under way, if any, ends first.
  await OutboxDeliverer.prototype.look.call(t.app.push);
  await t.app.push.idle();
  await releaseLease(t.db, 'push', t.app.push.holder);
  return takeLease(t.db, 'push', 'the-test', t.clock.now(), 600_000);
};
const release = async () => {
  quiet?.mockRestore();
  quiet = undefined;
  await releaseLease(t.db, 'push', 'the-test');
};
const shape = (r: PushRequest) => r.problem;
/** Queues a user's notifications as the lease holder's look would (the test holds the lease): how many rows. */
async function queueAsHolder(userId: number) {
  const events = await t.db
    .selectFrom('event_log')
    .selectAll()
    .where('type', '=', 'notification')
    .where('user_id', '=', userId)
    .execute();
  return queueNotifications(t.db, createdIn(events), t.clock.now().toISOString());
}

describe('what is sent', () => {
  it('live: one message per subscription asking for it, the documented payload, TTL 3600, Urgency high, signed and encrypted', async () => {
    const s = await followed('Live Pusher');
    const phone = fake.device();
    const laptop = fake.device();
    await subscribe(s.fan.c, phone);
    await subscribe(s.fan.c, laptop, ['live', 'reply']);
    await subscribe(s.fan.c, fake.device(), ['reply']);
    const stranger = await person();
    await subscribe(stranger.c, fake.device());
    const streamId = await goLive(s.id);
    await deliver();
    expect(fake.requests.map(shape)).toEqual([null, null]);
    expect(
      fake
        .delivered()
        .map((r) => r.device)
        .sort(),
    ).toEqual([phone.id, laptop.id].sort());
    const key = (await t.client().get('/api/push/key')).body.public_key;
    for (const r of fake.delivered()) {
      expect(r.headers.ttl).toBe(String(PUSH_TTL_SECONDS));
      expect(r.headers.urgency).toBe('high');
      expect(r.headers['content-encoding']).toBe('aes128gcm');
      expect(r.vapidKey).toBe(key);
      expect(r.claims?.sub).toBe(`mailto:nobody@localhost`);
      expect(fake.payload(r)).toEqual({
        kind: 'live',
        title: 'Live Pusher vysílá',
        body: expect.any(String),
        url: t.config.baseUrl + streamerPath(s.id, 'Live Pusher'),
        tag: `live-${streamId}`,
      });
    }
    const listed = (await s.fan.c.get('/api/push/subscriptions')).body as { last_ok_at: string | null }[];
    expect(listed.filter((x) => x.last_ok_at !== null)).toHaveLength(2);
    await deliver();
    expect(fake.requests).toHaveLength(2);
  });

  it('one VAPID signature per push service, used for an hour of the clock, then a new one', async () => {
    const s = await followed();
    const devices = [fake.device(), fake.device()];
    for (const d of devices) await subscribe(s.fan.c, d);
    // The signature kept from earlier tests is past its hour: the first message makes one.
    t.clock.advance(VAPID_RENEW_MS);
    await goLive(s.id);
    await deliver();
    const first = fake.delivered().map((r) => r.headers.authorization);
    expect(first).toHaveLength(2);
    expect(new Set(first).size).toBe(1);
    t.clock.advance(VAPID_RENEW_MS);
    await goLive(s.id);
    await deliver();
    const later = fake
      .delivered()
      .slice(2)
      .map((r) => r.headers.authorization);
    expect(later).toHaveLength(2);
    expect(new Set(later).size).toBe(1);
    expect(later[0]).not.toBe(first[0]);
    // Each verifies with the service's key, for this push service's origin.
    expect(fake.requests.map(shape)).toEqual([null, null, null, null]);
  });

  it('reply and mention: Urgency normal, the url with #c<comment id>, one tag for one comment; a kind not asked for is not sent', async () => {
    const sid = await t.streamer(`Thread ${++seq}`, RATING);
    const a = await person();
    const b = await person();
    const aPhone = fake.device();
    const bPhone = fake.device();
    await subscribe(a.c, aPhone, ['reply', 'mention']);
    await subscribe(b.c, bPhone, ['live']);
    const top = await comment(a.c, sid, 'first words here');
    const reply = await comment(b.c, sid, `answering you @${a.user.login} now`, { reply_to: top });
    await comment(a.c, sid, `and back to @${b.user.login}`, { reply_to: top });
    await deliver();
    expect(fake.delivered(bPhone)).toEqual([]);
    const got = fake.delivered(aPhone);
    expect(got.map((r) => r.headers.urgency)).toEqual(['normal', 'normal']);
    const name = (
      await t.db.selectFrom('streamers').select('name').where('id', '=', sid).executeTakeFirstOrThrow()
    ).name;
    expect(
      got.map((r) => fake.payload(r)).sort((x, y) => String(x.kind).localeCompare(String(y.kind))),
    ).toEqual([
      {
        kind: 'mention',
        title: expect.stringContaining(b.user.display_name),
        body: `answering you @${a.user.login} now`,
        url: `${t.config.baseUrl}${streamerPath(sid, name)}#c${reply}`,
        tag: `c${reply}`,
      },
      {
        kind: 'reply',
        title: expect.stringContaining(b.user.display_name),
        body: `answering you @${a.user.login} now`,
        url: `${t.config.baseUrl}${streamerPath(sid, name)}#c${reply}`,
        tag: `c${reply}`,
      },
    ]);
  });

  it('a notification hidden or deleted before its message went out sends nothing', async () => {
    const sid = await t.streamer(`Hidden ${++seq}`, RATING);
    const a = await person();
    const b = await person();
    const phone = fake.device();
    await subscribe(a.c, phone, ['reply']);
    const top = await comment(a.c, sid, 'the top comment');
    expect(await hold()).toBe(true);
    const hidden = await comment(b.c, sid, 'a reply staff will hide', { reply_to: top });
    const deleted = await comment(b.c, sid, 'a reply its author deletes', { reply_to: top });
    // Queued as the deliverer would (its own later take queues nothing more): hidden after that.
    expect(await queueAsHolder(a.user.id)).toBe(2);
    expect((await admin.put(`/api/comments?id=${hidden}`, { hidden: true })).status).toBe(200);
    expect((await admin.del(`/api/comments?id=${deleted}`)).status).toBe(200);
    const kept = await comment(b.c, sid, 'a reply that stays', { reply_to: top });
    await release();
    await deliver();
    expect(fake.delivered(phone).map((r) => fake.payload(r).tag)).toEqual([`c${kept}`]);
  });

  it('rated: the user who speaks for a streamer hears when its rating enters the Public view and when its total changes', async () => {
    const channel = `pushrated${process.pid}x${++seq}`;
    const name = `Rated ${seq}`;
    const created = await admin.post('/api/streamers?admin=1', {
      name,
      platform: 'provider_a',
      provider_a: channel,
    });
    expect(created.status, created.text).toBe(201);
    const sid = created.body.id as number;
    const voice = await t.user({ provider: 'provider_a', login: channel });
    const c = await t.signedIn(voice);
    const d = fake.device();
    await subscribe(c, d, ['rated']);
    const other = fake.device();
    await subscribe((await person()).c, other, ['rated']);
    expect((await admin.put(`/api/streamers?id=${sid}`, { r: RATING })).status).toBe(200);
    await deliver();
    expect((await admin.put(`/api/streamers?id=${sid}`, { r: { ...RATING, s: 9 } })).status).toBe(200);
    await deliver();
    const got = fake.delivered(d).map((r) => fake.payload(r));
    expect(got).toHaveLength(2);
    for (const m of got) {
      expect(m).toMatchObject({ kind: 'rated', url: `${t.config.baseUrl}${streamerPath(sid, name)}` });
    }
    expect(fake.delivered(other)).toEqual([]);
  });

  it('POST /api/push/test queues one test message for each of your subscriptions (202 {ok, queued})', async () => {
    const me = await person();
    const d = fake.device();
    await subscribe(me.c, d, ['rated']);
    const tablet = fake.device();
    await subscribe(me.c, tablet, ['live']);
    const someoneElse = fake.device();
    await subscribe((await person()).c, someoneElse, ['rated']);
    const res = await me.c.post('/api/push/test', {});
    expect([res.status, res.body]).toEqual([202, { ok: true, queued: 2 }]);
    await deliver();
    expect(fake.delivered(tablet).map((r) => fake.payload(r).kind)).toEqual(['test']);
    expect(fake.delivered(someoneElse)).toEqual([]);
    expect(fake.delivered(d).map((r) => fake.payload(r))).toEqual([
      {
        kind: 'test',
        title: expect.any(String),
        body: expect.any(String),
        url: `${t.config.baseUrl}/`,
        tag: 'test',
      },
    ]);
    expect(fake.delivered(d)[0]?.headers.urgency).toBe('normal');
  });
});

describe('answers of the push service', () => {
  it.each([404, 410] as const)('%s deletes the subscription; nothing more is sent to it', async (status) => {
    const s = await followed();
    const gone = fake.device();
    const kept = fake.device();
    await subscribe(s.fan.c, gone);
    const keptId = await subscribe(s.fan.c, kept);
    fake.script(gone, [status]);
    await goLive(s.id);
    await deliver();
    expect((await s.fan.c.get('/api/push/subscriptions')).body.map((x: { id: number }) => x.id)).toEqual([
      keptId,
    ]);
    await goLive(s.id);
    await deliver();
    expect(fake.requests.filter((r) => r.device === gone.id)).toHaveLength(1);
    expect(fake.delivered(kept)).toHaveLength(2);
  });

  it('429 waits for Retry-After (seconds or a date), then sends once', async () => {
    const s = await followed();
    const d = fake.device();
    await subscribe(s.fan.c, d);
    t.clock.freeze();
    fake.script(d, [429], '30');
    await goLive(s.id);
    await deliver();
    expect(fake.requests.map((r) => r.status)).toEqual([429]);
    t.clock.advance(29_000);
    await deliver();
    expect(fake.requests).toHaveLength(1);
    t.clock.advance(1_000);
    await deliver();
    expect(fake.requests.map((r) => r.status)).toEqual([429, 201]);
    expect(await states()).toEqual({ state: 'sent', attempts: 1 });
  });

  it(`other failures and timeouts are tried ${MAX_ATTEMPTS - 1} more times with growing waits, then dropped`, async () => {
    const s = await followed();
    const d = fake.device();
    await subscribe(s.fan.c, d);
    t.clock.freeze();
    fake.script(d, [500, 'hang', 500, 500, 500]);
    await goLive(s.id);
    await deliver();
    for (const wait of RETRY_WAITS_MS) {
      t.clock.advance(wait - 1);
      await deliver();
      const before = fake.requests.length;
      t.clock.advance(1);
      await deliver();
      expect(fake.requests.length, `after ${wait} ms`).toBe(before + 1);
    }
    expect(fake.requests.map((r) => r.status)).toEqual([500, 0, 500, 500]);
    // Growing: each wait longer than the one before.
    expect(RETRY_WAITS_MS.every((w, i) => i === 0 || w > RETRY_WAITS_MS[i - 1]!)).toBe(true);
    expect(await states()).toEqual({ state: 'failed', attempts: MAX_ATTEMPTS });
    t.clock.advance(3_600_000);
    await deliver();
    expect(fake.requests).toHaveLength(MAX_ATTEMPTS);
  });

  it('an answer with a header Node.js refuses is no answer: the service stays up and tries again, delivered once', async () => {
    const s = await followed();
    const d = fake.device();
    await subscribe(s.fan.c, d);
    t.clock.freeze();
    fake.script(d, ['garbled']);
    await goLive(s.id);
    await deliver();
    expect(await states()).toEqual({ state: 'pending', attempts: 1 });
    t.clock.advance(RETRY_WAITS_MS[0]);
    await deliver();
    t.clock.advance(600_000);
    await deliver();
    expect(fake.requests.map((r) => r.status)).toEqual([0, 201]);
    expect(await states()).toEqual({ state: 'sent', attempts: 2 });
    expect((await t.client().get('/healthz')).status).toBe(200);
  });

  it('a success within the retries is delivered once', async () => {
    const s = await followed();
    const d = fake.device();
    await subscribe(s.fan.c, d);
    t.clock.freeze();
    fake.script(d, [500]);
    await goLive(s.id);
    await deliver();
    t.clock.advance(RETRY_WAITS_MS[0]);
    await deliver();
    t.clock.advance(600_000);
    await deliver();
    expect(fake.requests.map((r) => r.status)).toEqual([500, 201]);
  });
});

describe('a look that crosses a write', () => {
  /** A promise and the function that settles it. */
  const gate = () => {
    let open = () => {};
    const shut = new Promise<void>((r) => (open = r));
    return { shut, open };
  };
  type Channel = { chores?: unknown; due: (...a: never[]) => Promise<unknown> };
  const channel = t.app.push.channel as unknown as Channel;

  it('a look asked for while another is under way, which read before the write, looks again after it', async () => {
    const me = await person();
    const d = fake.device();
    await subscribe(me.c, d, ['rated']);
    await deliver();
    const reached = gate();
    const held = gate();
    // The push channel has no chores of its own: this one holds a look after it read the outbox.
    channel.chores = {
      waiting: async () => {
        reached.open();
        await held.shut;
        return false;
      },
      run: async () => {},
    };
    try {
      void t.app.push.look();
      await reached.shut;
      expect((await me.c.post('/api/push/test', {})).status).toBe(202);
      const asked = t.app.push.look();
      held.open();
      await asked;
    } finally {
      delete channel.chores;
    }
    await t.app.push.idle();
    expect(fake.delivered(d)).toHaveLength(1);
  });

  it('a send loop that found nothing more, while a look saw new work, claims once more before it ends', async () => {
    const me = await person();
    const d = fake.device();
    await subscribe(me.c, d, ['rated']);
    await deliver();
    const due = channel.due;
    const reached = gate();
    const held = gate();
    let calls = 0;
    // The loop's second claim reads nothing due and is held before it answers.
    channel.due = async (...args: never[]) => {
      const rows = await due(...args);
      if (++calls === 2) {
        reached.open();
        await held.shut;
      }
      return rows;
    };
    try {
      expect((await me.c.post('/api/push/test', {})).status).toBe(202);
      await reached.shut;
      expect((await me.c.post('/api/push/test', {})).status).toBe(202);
      await t.app.push.look();
      held.open();
      await t.app.push.idle();
    } finally {
      channel.due = due;
    }
    expect(fake.delivered(d)).toHaveLength(2);
  });
});

describe('requests come first', () => {
  it(`while the service answers ${BUSY_REQUESTS_PER_SECOND} requests a second, push messages go ${PUSH_GIVE_WAY_PER_SECOND} a second at most`, async () => {
    t.clock.freeze();
    // Only the test's looks, at the clock's times it chooses (not the instance's timer).
    const timer = vi.spyOn(t.app.push, 'look').mockResolvedValue();
    const look = async () => {
      await OutboxDeliverer.prototype.look.call(t.app.push);
      await t.app.push.idle();
    };
    onTestFinished(() => timer.mockRestore());
    const s = await followed();
    // The most one user may have.
    const devices = Array.from({ length: 10 }, () => fake.device());
    for (const d of devices) await subscribe(s.fan.c, d);
    await goLive(s.id);
    // A second of the clock with that many requests, answered before routing and routed.
    t.clock.advance(1000);
    await Promise.all(
      Array.from({ length: BUSY_REQUESTS_PER_SECOND }, (_, i) =>
        t.client().get(i % 2 === 0 ? '/healthz' : '/api/streamers?limit=1'),
      ),
    );
    t.clock.advance(1000);
    const before = t.clock.sleeps.length;
    await look();
    expect(devices.map((d) => fake.delivered(d).length)).toEqual(devices.map(() => 1));
    const paced = t.clock.sleeps.slice(before);
    // A few at a time, each followed by its share of the second.
    const gap = 1000 / PUSH_GIVE_WAY_PER_SECOND;
    expect(paced.reduce((a, b) => a + b, 0)).toBe(devices.length * gap);
    expect(Math.max(...paced)).toBeLessThanOrEqual(5 * gap);
    // A quiet second: the next go-live goes at full speed.
    t.clock.advance(1000);
    const quietFrom = t.clock.sleeps.length;
    await goLive(s.id);
    await look();
    expect(devices.map((d) => fake.delivered(d).length)).toEqual(devices.map(() => 2));
    expect(t.clock.sleeps.slice(quietFrom)).toEqual([]);
  });
});

describe('claims', () => {
  it('wait for a quarter of the places in flight, not for each one that comes free (each claim is a commit)', () => {
    // Push's 32 places: a claim of 8 at the least, once 8 are free.
    expect(mayRefill(31, 32)).toBe(false);
    expect(mayRefill(25, 32)).toBe(false);
    expect(mayRefill(24, 32)).toBe(true);
    expect(mayRefill(0, 32)).toBe(true);
    // E-mail's 4 connections: one is a quarter.
    expect(mayRefill(4, 4)).toBe(false);
    expect(mayRefill(3, 4)).toBe(true);
  });

  it('a send loop with every place taken claims again once eight are free, eight at once', async () => {
    const s = await followed();
    const fans = [s.fan, await person(), await person(), await person()];
    for (const fan of fans.slice(1)) {
      expect((await fan.c.put(`/api/follows?streamer_id=${s.id}`, { follow: true })).status).toBe(200);
    }
    const devices = fans.flatMap((fan) => Array.from({ length: 10 }, () => ({ fan, d: fake.device() })));
    for (const { fan, d } of devices) {
      await subscribe(fan.c, d);
      fake.script(d, ['held']);
    }
    await goLive(s.id);
    const sent = async () =>
      Number(
        (
          await t.db
            .selectFrom('push_outbox')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('state', '=', 'sent')
            .executeTakeFirst()
        )?.n ?? 0,
      );
    const before = await sent();
    /** Event-loop turns until `n` more messages are written as sent (bounded: a hang fails). */
    const untilSent = async (n: number) => {
      for (let turn = 0; (await sent()) < before + n; turn++) {
        if (turn > 100_000) throw new Error(`never ${n} sent`);
        await new Promise(setImmediate);
      }
    };
    void t.app.push.look();
    await fake.whenHolding(32);
    expect(fake.requests).toHaveLength(32);
    // Seven places come free one by one: no claim yet.
    for (let i = 1; i <= 7; i++) {
      fake.answerHeld(1);
      await untilSent(i);
    }
    expect(fake.requests).toHaveLength(32);
    // The eighth: the eight left are claimed together.
    fake.answerHeld(1);
    await fake.whenHolding(32);
    expect(fake.requests).toHaveLength(40);
    fake.answerHeld(32);
    await deliver();
    for (const { d } of devices) expect(fake.delivered(d)).toHaveLength(1);
  });
});

describe('never twice', () => {
  it('a notification is queued once per subscription however often it is taken (the unique index); of two claims at once, each message goes to one', async () => {
    const s = await followed();
    for (let i = 0; i < 6; i++) await subscribe(s.fan.c, fake.device());
    expect(await hold()).toBe(true);
    await goLive(s.id);
    const now = t.clock.now().toISOString();
    expect(await queueAsHolder(s.fan.user.id)).toBe(6);
    expect(await queueAsHolder(s.fan.user.id)).toBe(0);
    // The deliverer's claim (delivery/rows.ts) of the due rows, by two instances at once.
    const due = (await dueMessages(t.db, now, 100, [])).map((d) => d.id);
    const [x, y] = await Promise.all(
      ['x', 'y'].map((holder) => claimRows(t.db, 'push_outbox', due, holder, now)),
    );
    const ids = [...x!, ...y!];
    expect(ids.length).toBe(6);
    expect(new Set(ids).size).toBe(6);
    await release();
    await deliver();
    expect(fake.requests).toEqual([]);
  });

  it('three instances on one database, looking side by side: every message once', async () => {
    const second = await startApp(env, { database: t.database });
    const third = await startApp(env, { database: t.database });
    try {
      const s = await followed();
      const devices = Array.from({ length: 6 }, () => fake.device());
      for (const d of devices) await subscribe(s.fan.c, d);
      await goLive(s.id);
      await deliver(t, second, third);
      await goLive(s.id);
      await Promise.all([deliver(t, second, third), deliver(third, second, t), deliver(second, third)]);
      expect(fake.requests.map(shape).every((p) => p === null)).toBe(true);
      for (const d of devices) expect(fake.delivered(d)).toHaveLength(2);
    } finally {
      await Promise.all([second.close(), third.close()]);
    }
  });

  it('an instance without the lease sends its share of the due messages, each once', async () => {
    const second = await startApp(env, { database: t.database });
    try {
      const s = await followed();
      const devices = Array.from({ length: 4 }, () => fake.device());
      for (const d of devices) await subscribe(s.fan.c, d);
      // Another instance (the test) holds the lease and has queued the messages, as its look does.
      expect(await hold()).toBe(true);
      await goLive(s.id);
      expect(await queueAsHolder(s.fan.user.id)).toBe(4);
      second.clock.freeze();
      second.clock.advance(t.clock.now().getTime() - second.clock.now().getTime() + 1000);
      await Promise.all([deliver(second), deliver(second)]);
      for (const d of devices) expect(fake.delivered(d)).toHaveLength(1);
      const sent = await t.db
        .selectFrom('push_outbox')
        .select('id')
        .where('claimed_by', '=', second.app.push.holder)
        .where('state', '=', 'sent')
        .execute();
      expect(sent).toHaveLength(4);
    } finally {
      await release();
      await second.close();
    }
  });

  it('the deliverer\'s queue depth is in deliverer_queue_depth{deliverer="push"}', async () => {
    const s = await followed();
    await subscribe(s.fan.c, fake.device());
    expect(await hold()).toBe(true);
    await goLive(s.id);
    const scrape = async () =>
      (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${env.METRICS_TOKEN}` } })).text();
    // The gauge is read when scraped, from what the deliverer counted last: a later scrape shows it.
    await expect.poll(scrape).toMatch(/deliverer_queue_depth\{deliverer="push"\} [1-9]/);
    await release();
    await deliver();
  });

  // Last: it stops this file's own sender, as a stopped instance.
  it('across a restart: what was sent is not sent again, and what came while it was down is sent once', async () => {
    await t.app.push.stop();
    const s = await followed();
    const d = fake.device();
    await subscribe(s.fan.c, d);
    const first = await startApp(env, { database: t.database });
    await goLive(s.id);
    await deliver(first);
    expect(fake.delivered(d)).toHaveLength(1);
    await first.close();
    await goLive(s.id);
    const restarted = await startApp(env, { database: t.database });
    try {
      await deliver(restarted);
      await deliver(restarted);
      expect(fake.delivered(d)).toHaveLength(2);
      expect(new Set(fake.delivered(d).map((r) => fake.payload(r).tag)).size).toBe(2);
    } finally {
      await restarted.close();
    }
  });
});

describe('what is kept of a message', () => {
  it(`its row goes ${PUSH_LIMITS.sentKeptDays} days after it finished, also while nothing more is sent (the privacy page's words)`, async () => {
    // An instance of its own, whose clock alone moves by days; this file's sender is stopped above.
    const own = await startApp(env, { database: t.database });
    try {
      const user = await own.user({ login: `kept${process.pid}` });
      const me = await own.signedIn(user);
      const d = fake.device();
      await subscribe(me, d, ['rated']);
      expect((await me.post('/api/push/test', {})).status).toBe(202);
      await deliver(own);
      expect(fake.delivered(d)).toHaveLength(1);
      const rows = async () =>
        (
          await own.db
            .selectFrom('push_outbox')
            .innerJoin('push_subscriptions', 'push_subscriptions.id', 'push_outbox.subscription_id')
            .select(['push_outbox.state'])
            .where('push_subscriptions.user_id', '=', user.id)
            .execute()
        ).map((r) => r.state);
      expect(await rows()).toEqual(['sent']);
      own.clock.advance(PUSH_LIMITS.sentKeptDays * DAY - HOUR);
      await deliver(own);
      expect(await rows()).toEqual(['sent']);
      own.clock.advance(2 * HOUR);
      await deliver(own);
      expect(await rows()).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
