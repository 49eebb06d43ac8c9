import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { parseConfig } from '../src/config/config.ts';
import { isP256Point, newP256KeyPair, vapidPair } from '../src/lib/p256.ts';
import { PUSH_LIMITS } from '../src/shared/push.ts';
import { startApp, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { type Device, startFakePush } from './helpers/fake-push.ts';

/** DECISIONS.md "Fifth wave" → "Push notifications": keys and subscriptions, on SQLite and PostgreSQL. */
const fake = await startFakePush();
afterAll(() => fake.close());
const t = await useApp({ PUSH_SERVICE_URL: fake.serviceUrl });
const admin = await t.admin();
beforeEach(() => fake.reset());

const person = async () => {
  const user = await t.user();
  return { user, c: await t.signedIn(user) };
};
const sub = (d: Device, kinds?: unknown) => ({
  endpoint: d.endpoint,
  keys: d.keys,
  ...(kinds ? { kinds } : {}),
});
const subscribe = (c: Client, body: unknown) => c.post('/api/push/subscriptions', body);
const rows = async () =>
  Number(
    (
      await t.db
        .selectFrom('push_subscriptions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const INVALID = { error: 'Invalid subscription', code: 'invalid_subscription' };
const point = () => {
  const e = createECDH('prime256v1');
  e.generateKeys();
  return e.getPublicKey().toString('base64url');
};
const auth = randomBytes(16).toString('base64url');

describe('the VAPID key', () => {
  it('GET /api/push/key answers a P-256 public key to anyone; every instance on the database has the same', async () => {
    const res = await t.client().get('/api/push/key');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['public_key']);
    const key = Buffer.from(res.body.public_key as string, 'base64url');
    expect([key.length, key[0]]).toEqual([65, 4]);
    const stored = await t.db
      .selectFrom('secrets')
      .select('value')
      .where('key', '=', 'vapid_keys')
      .executeTakeFirst();
    expect(JSON.parse(stored?.value ?? '{}').publicKey).toBe(res.body.public_key);
    const second = await startApp({}, { database: t.database });
    try {
      expect((await second.client().get('/api/push/key')).body).toEqual(res.body);
    } finally {
      await second.close();
    }
  });

  it('a new pair is a P-256 point and its 32-byte scalar, of one key, that web-push signs with', () => {
    for (let i = 0; i < 64; i++) {
      const pair = newP256KeyPair();
      expect(isP256Point(pair.publicKey)).toBe(true);
      const scalar = Buffer.from(pair.privateKey, 'base64url');
      expect(scalar).toHaveLength(32);
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(scalar);
      expect(ecdh.getPublicKey().toString('base64url')).toBe(pair.publicKey);
      const headers = webpush.getVapidHeaders(
        'https://push.example.org',
        'mailto:admin@example.org',
        pair.publicKey,
        pair.privateKey,
        'aes128gcm',
      );
      expect(headers.Authorization).toContain(`k=${pair.publicKey}`);
    }
  });

  it('a scalar whose first byte is zero (one key in 256) is written at its full 32 bytes, and signs', () => {
    const scalar = Buffer.concat([Buffer.from([0]), randomBytes(31)]);
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(scalar);
    expect(ecdh.getPrivateKey().length).toBeLessThan(32);
    const pair = vapidPair(ecdh);
    expect(Buffer.from(pair.privateKey, 'base64url')).toEqual(scalar);
    expect(isP256Point(pair.publicKey)).toBe(true);
    const headers = webpush.getVapidHeaders(
      'https://push.example.org',
      'mailto:admin@example.org',
      pair.publicKey,
      pair.privateKey,
      'aes128gcm',
    );
    expect(headers.Authorization).toContain(`k=${pair.publicKey}`);
  });

  it('instances that start together keep one key pair (insert or ignore, then read)', async () => {
    await t.db.deleteFrom('secrets').where('key', '=', 'vapid_keys').execute();
    const apps = await Promise.all([1, 2, 3].map(() => startApp({}, { database: t.database })));
    try {
      const keys = await Promise.all(
        apps.map(async (a) => (await a.client().get('/api/push/key')).body.public_key),
      );
      expect(new Set(keys).size).toBe(1);
      const stored = await t.db
        .selectFrom('secrets')
        .select('value')
        .where('key', '=', 'vapid_keys')
        .execute();
      expect(stored.map((r) => JSON.parse(r.value).publicKey)).toEqual([keys[0]]);
    } finally {
      for (const a of apps) await a.close();
    }
  });

  it('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set; both or neither, each checked, named in the error', async () => {
    const pair = webpush.generateVAPIDKeys();
    const env = { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey };
    const own = await startApp(env, { database: t.database });
    try {
      expect((await own.client().get('/api/push/key')).body).toEqual({ public_key: pair.publicKey });
    } finally {
      await own.close();
    }
    expect(parseConfig({ BASE_URL: 'https://hodnoceni.example.cz' }).push.vapidSubject).toBe(
      'mailto:nobody@hodnoceni.example.cz',
    );
    expect(parseConfig({ VAPID_SUBJECT: 'https://example.org/contact' }).push.vapidSubject).toBe(
      'https://example.org/contact',
    );
    expect(() => parseConfig({ VAPID_PUBLIC_KEY: pair.publicKey })).toThrow(
      /VAPID_PRIVATE_KEY must be set with VAPID_PUBLIC_KEY/,
    );
    expect(() => parseConfig({ VAPID_PRIVATE_KEY: pair.privateKey })).toThrow(/VAPID_PUBLIC_KEY must be set/);
    expect(() => parseConfig({ ...env, VAPID_PUBLIC_KEY: pair.publicKey.slice(2) })).toThrow(
      /VAPID_PUBLIC_KEY/,
    );
    expect(() => parseConfig({ ...env, VAPID_PRIVATE_KEY: 'abc' })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => parseConfig({ VAPID_SUBJECT: 'http://example.org' })).toThrow(/VAPID_SUBJECT/);
    expect(() => parseConfig({ PUSH_SERVICE_URL: 'ftp://x' })).toThrow(/PUSH_SERVICE_URL/);
  });
});

describe('subscriptions', () => {
  it('POST answers 201 {ok, id}; GET lists your own [{id, kinds, created_at, last_ok_at}], never endpoint or keys', async () => {
    const me = await person();
    const d = fake.device();
    const made = await subscribe(me.c, sub(d, ['reply', 'live']));
    expect([made.status, made.body]).toEqual([201, { ok: true, id: expect.any(Number) }]);
    const def = await subscribe(me.c, sub(fake.device()));
    const list = await me.c.get('/api/push/subscriptions');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { id: def.body.id, kinds: ['live'], created_at: expect.any(String), last_ok_at: null },
      { id: made.body.id, kinds: ['live', 'reply'], created_at: expect.any(String), last_ok_at: null },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(d.keys.auth);
    expect((await (await person()).c.get('/api/push/subscriptions')).body).toEqual([]);
    expect((await me.c.get('/api/push/subscriptions?limit=1')).body).toHaveLength(1);
    expect(
      (await me.c.get(`/api/push/subscriptions?before=${def.body.id}`)).body.map((s: { id: number }) => s.id),
    ).toEqual([made.body.id]);
    expect((await me.c.get('/api/push/subscriptions?limit=0')).status).toBe(400);
  });

  it('only known push services (https) or PUSH_SERVICE_URL, a 65-byte P-256 p256dh, a 16-byte auth, known kinds: else 400 and nothing stored', async () => {
    const me = await person();
    const keys = { p256dh: point(), auth };
    const ok = [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGx',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA',
    ];
    for (const endpoint of ok) expect((await subscribe(me.c, { endpoint, keys })).status, endpoint).toBe(201);
    await t.db.deleteFrom('push_subscriptions').where('user_id', '=', me.user.id).execute();
    const before = await rows();
    const bad: unknown[] = [
      { endpoint: 'https://evil.example.com/push/1', keys },
      { endpoint: 'http://fcm.googleapis.com/fcm/send/x', keys },
      { endpoint: 'https://fcm.googleapis.com:8443/fcm/send/x', keys },
      { endpoint: 'https://user:pw@fcm.googleapis.com/fcm/send/x', keys },
      { endpoint: 'https://fcm.googleapis.com.evil.example/x', keys },
      { endpoint: 'https://notify.windows.com.evil.example/x', keys },
      // An empty label before the known suffix: a host that resolves nowhere (an attacker's walk).
      { endpoint: 'https://.notify.windows.com/x', keys },
      { endpoint: 'https://wns2..notify.windows.com/x', keys },
      { endpoint: 'http://127.0.0.1:1/push/x', keys },
      { endpoint: `${fake.origin.replace(/\d+$/, (p) => String(Number(p) + 1))}/push/x`, keys },
      // Under PUSH_SERVICE_URL as written, elsewhere once the address is read (an attacker's walk).
      { endpoint: `${fake.serviceUrl}../internal/admin?delete=1`, keys },
      { endpoint: `${fake.serviceUrl}%2e%2e/internal`, keys },
      { endpoint: `${fake.serviceUrl}x/../../internal`, keys },
      { endpoint: 'not a url', keys },
      { endpoint: 42, keys },
      { keys },
      { endpoint: fake.device().endpoint },
      { endpoint: fake.device().endpoint, keys: { p256dh: 'BAAA', auth } },
      { endpoint: fake.device().endpoint, keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth } },
      { endpoint: fake.device().endpoint, keys: { p256dh: point().slice(0, -4), auth } },
      {
        endpoint: fake.device().endpoint,
        keys: { p256dh: point(), auth: randomBytes(15).toString('base64url') },
      },
      { endpoint: fake.device().endpoint, keys: { p256dh: point(), auth: '!!!' } },
      { endpoint: fake.device().endpoint, keys: { p256dh: point(), auth: 7 } },
      { ...sub(fake.device()), kinds: [] },
      { ...sub(fake.device()), kinds: ['like'] },
      { ...sub(fake.device()), kinds: 'live' },
      { ...sub(fake.device()), kinds: ['live', null] },
      { endpoint: `https://fcm.googleapis.com/${'x'.repeat(PUSH_LIMITS.endpointMax)}`, keys },
    ];
    for (const body of bad) {
      const res = await subscribe(me.c, body);
      expect([res.status, res.body], JSON.stringify(body)).toEqual([400, INVALID]);
    }
    expect(await rows()).toBe(before);
  });

  it("an endpoint's host in capitals is the same endpoint: one row, its host lowercased, its path as given", async () => {
    const me = await person();
    const keys = { p256dh: point(), auth };
    const path = '/fcm/send/AbC:DeF';
    for (const host of ['FCM.googleapis.com', 'fcm.googleapis.com', 'Fcm.GoogleApis.com']) {
      expect((await subscribe(me.c, { endpoint: `https://${host}${path}`, keys })).status, host).toBe(201);
    }
    const stored = await t.db
      .selectFrom('push_subscriptions')
      .select('endpoint')
      .where('user_id', '=', me.user.id)
      .execute();
    expect(stored.map((r) => r.endpoint)).toEqual([`https://fcm.googleapis.com${path}`]);
  });

  it('anonymous: 401; banned: 403 Účet je zablokován; timed out: 403 Účet je dočasně omezen; nothing stored', async () => {
    const before = await rows();
    const anon = t.client();
    expect((await subscribe(anon, sub(fake.device()))).body).toEqual({
      error: 'Not logged in',
      code: 'not_logged_in',
    });
    expect((await anon.get('/api/push/subscriptions')).status).toBe(401);
    expect((await anon.post('/api/push/test', {})).status).toBe(401);
    const banned = await t.signedIn(await t.user({}, { banned: true }));
    const refused = await subscribe(banned, sub(fake.device()));
    expect([refused.status, refused.body]).toEqual([403, { error: 'Účet je zablokován', code: 'banned' }]);
    expect((await banned.post('/api/push/test', {})).status).toBe(403);
    const late = await person();
    const kept = await subscribe(late.c, sub(fake.device()));
    await admin.put(`/api/users?id=${late.user.id}`, { timeout_hours: 1 });
    const timed = await subscribe(late.c, sub(fake.device()));
    expect([timed.status, timed.body.code]).toEqual([403, 'timed_out']);
    expect((await late.c.del(`/api/push/subscriptions?id=${kept.body.id}`)).status).toBe(403);
    expect(await rows()).toBe(before + 1);
  });

  it('the same endpoint again replaces its subscription: one row per endpoint, moved to whoever subscribed it last', async () => {
    const a = await person();
    const b = await person();
    const d = fake.device();
    const first = await subscribe(a.c, sub(d));
    const again = await subscribe(a.c, sub(d, ['reply']));
    expect(again.body.id).toBe(first.body.id);
    expect((await a.c.get('/api/push/subscriptions')).body.map((s: { kinds: string[] }) => s.kinds)).toEqual([
      ['reply'],
    ]);
    const moved = await subscribe(b.c, sub(d, ['mention']));
    expect(moved.status).toBe(201);
    expect((await a.c.get('/api/push/subscriptions')).body).toEqual([]);
    expect((await b.c.get('/api/push/subscriptions')).body).toEqual([
      expect.objectContaining({ id: moved.body.id, kinds: ['mention'] }),
    ]);
    const same = await t.db
      .selectFrom('push_subscriptions')
      .select('user_id')
      .where('endpoint', '=', d.endpoint)
      .execute();
    expect(same).toEqual([{ user_id: b.user.id }]);
  });

  it(`at most ${PUSH_LIMITS.perUser} per user: the next replaces the oldest, also when sent side by side`, async () => {
    const me = await person();
    const ids: number[] = [];
    for (let i = 0; i < PUSH_LIMITS.perUser; i++) {
      ids.push((await subscribe(me.c, sub(fake.device()))).body.id);
      t.clock.advance(1000);
    }
    const next = await subscribe(me.c, sub(fake.device()));
    expect(next.status).toBe(201);
    const listed = (await me.c.get('/api/push/subscriptions')).body.map((s: { id: number }) => s.id);
    expect(listed).toHaveLength(PUSH_LIMITS.perUser);
    expect(listed).not.toContain(ids[0]);
    expect(listed).toContain(next.body.id);
    const burst = await Promise.all(Array.from({ length: 8 }, () => subscribe(me.c, sub(fake.device()))));
    expect(burst.map((r) => r.status)).toEqual(Array(8).fill(201));
    const count = await t.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('user_id', '=', me.user.id)
      .execute();
    expect(count).toHaveLength(PUSH_LIMITS.perUser);
  });

  it("DELETE ?id=N removes your own: {ok: true}; someone else's or unknown: 404 Subscription not found; no id: 400", async () => {
    const a = await person();
    const b = await person();
    const mine = (await subscribe(a.c, sub(fake.device()))).body.id as number;
    const theirs = (await subscribe(b.c, sub(fake.device()))).body.id as number;
    const other = await a.c.del(`/api/push/subscriptions?id=${theirs}`);
    expect([other.status, other.body]).toEqual([
      404,
      { error: 'Subscription not found', code: 'subscription_not_found' },
    ]);
    expect((await a.c.del('/api/push/subscriptions?id=999999999')).status).toBe(404);
    expect((await a.c.del('/api/push/subscriptions')).status).toBe(400);
    expect((await a.c.del(`/api/push/subscriptions?id=${mine}`)).body).toEqual({ ok: true });
    expect((await a.c.get('/api/push/subscriptions')).body).toEqual([]);
    expect((await b.c.get('/api/push/subscriptions')).body).toHaveLength(1);
  });

  it('subscriptions are in the account export (their push service, never endpoint or keys) and go with the account', async () => {
    const me = await person();
    const d = fake.device();
    await subscribe(me.c, sub(d, ['live', 'mention']));
    const exported = await me.c.get('/api/account/export');
    expect(exported.body.push_subscriptions).toEqual([
      {
        id: expect.any(Number),
        push_service: fake.origin,
        kinds: ['live', 'mention'],
        created_at: expect.any(String),
        last_ok_at: null,
      },
    ]);
    expect(JSON.stringify(exported.body)).not.toContain(d.keys.auth);
    expect(JSON.stringify(exported.body)).not.toContain(d.endpoint);
    expect((await me.c.del('/api/account', { body: { confirm: me.user.login } })).body).toEqual({ ok: true });
    const left = await t.db
      .selectFrom('push_subscriptions')
      .select('id')
      .where('endpoint', '=', d.endpoint)
      .execute();
    expect(left).toEqual([]);
  });
});
