import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import { type Mode, startFakeLive } from './helpers/fake-live.ts';

const fake = await startFakeLive();
afterAll(() => fake.close());
const t = await useApp(fake.env());
/** An app whose calls to the providers give up after 400 ms: the hanging provider's test. */
const quick = await useApp({ ...fake.env(), PROVIDER_TIMEOUT_MS: '400' });
const admin = await t.admin();
const admins = new Map([
  [t, admin],
  [quick, await quick.admin()],
]);
beforeEach(() => fake.reset());

let n = 0;
async function addStreamer(platform: 'provider_a' | 'provider_b', channel = `chan${++n}`, app = t) {
  const key = platform === 'provider_a' ? 'provider_a' : 'provider_b';
  const res = await admins.get(app)!.post('/api/streamers?admin=1', {
    name: `Live ${channel}`,
    platform,
    [key]: channel,
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, channel };
}
const item = async (id: number, app = t) =>
  (
    (await admins.get(app)!.get('/api/streamers?all=1')).body as {
      id: number;
      game: string;
      live_since: string | null;
    }[]
  ).find((s) => s.id === id);
const sync = async (app = t) => expect(await app.app.liveSync.runOnce()).toBe(true);
const stream = { game: 'Elden Ring', title: 'No-hit run', viewers: 1234, since: '2026-11-21T20:00:00Z' };
const apiOf = (platform: 'provider_a' | 'provider_b') => (platform === 'provider_a' ? fake.a : fake.b);

describe.each(['provider_a', 'provider_b'] as const)('live sync of %s', (platform) => {
  it('a streamer scripted live is live after one round, with game, title, viewers and live_since', async () => {
    const s = await addStreamer(platform);
    apiOf(platform).live.set(s.channel, stream);
    await sync();
    expect(await item(s.id)).toMatchObject({
      status: 'live',
      game: 'Elden Ring',
      title: 'No-hit run',
      viewers: 1234,
      live_since: '2026-11-21T20:00:00.000Z',
      synced_at: expect.any(String),
      avatar: platform === 'provider_a' ? `https://cdn.example/${s.channel}.png` : '',
    });
  });

  it('goes offline only after two successful checks in a row that do not show it live', async () => {
    const s = await addStreamer(platform);
    apiOf(platform).live.set(s.channel, stream);
    await sync();
    apiOf(platform).live.clear();
    await sync();
    expect(await item(s.id)).toMatchObject({ status: 'live', viewers: 1234 });
    await sync();
    expect(await item(s.id)).toMatchObject({ status: 'offline', viewers: null, live_since: null });
  });

  it('a live check in between starts the two checks again', async () => {
    const s = await addStreamer(platform);
    apiOf(platform).live.set(s.channel, stream);
    await sync();
    apiOf(platform).live.clear();
    await sync();
    apiOf(platform).live.set(s.channel, { ...stream, viewers: 99 });
    await sync();
    apiOf(platform).live.clear();
    await sync();
    expect(await item(s.id)).toMatchObject({ status: 'live', viewers: 99 });
  });

  const failures: Mode[] = ['error_500', 'html_403', 'not_json', 'hang', 'rate_limited'];
  it.each(failures)('a failed check (%s) changes no streamer and does not count as a miss', async (mode) => {
    const u = mode === 'hang' ? quick : t;
    const s = await addStreamer(platform, undefined, u);
    apiOf(platform).live.set(s.channel, stream);
    await sync(u);
    const before = await item(s.id, u);
    apiOf(platform).live.clear();
    await sync(u); // one successful miss
    const afterMiss = await item(s.id, u);
    apiOf(platform).mode = mode;
    apiOf(platform).resetAt = Math.floor(u.clock.now().getTime() / 1000) + 30;
    await sync(u);
    await sync(u);
    expect(await item(s.id, u)).toEqual(afterMiss);
    expect(afterMiss).toMatchObject({ status: 'live', game: before?.game });
    const state = (await admins.get(u)!.get('/api/sync')).body[platform];
    expect(state.last_error).toEqual(expect.any(String));
    // A call past its time limit says so, naming the setting (not "cannot reach").
    if (mode === 'hang') expect(state.last_error).toContain('no answer within 400 ms (PROVIDER_TIMEOUT_MS)');
    u.clock.advance(61_000); // past any rate-limit pause
    apiOf(platform).mode = 'ok';
    await sync(u); // the second miss in a row: now offline
    expect(await item(s.id, u)).toMatchObject({ status: 'offline', viewers: null });
  });
});

describe('live_since', () => {
  it('without a start time from the provider it is when the service first saw the stream, and it stays', async () => {
    const s = await addStreamer('provider_b');
    fake.b.live.set(s.channel, { ...stream, since: '' });
    await sync();
    const first = (await item(s.id))?.live_since;
    expect(first).toEqual(expect.any(String));
    t.clock.advance(60_000);
    await sync();
    expect((await item(s.id))?.live_since).toBe(first);
  });
});

describe('rate limits', () => {
  it('after a 429 no call is made until Ratelimit-Reset; then checks go on', async () => {
    const s = await addStreamer('provider_a');
    fake.a.mode = 'rate_limited';
    fake.a.resetAt = Math.floor(t.clock.now().getTime() / 1000) + 30;
    await sync();
    expect(fake.callsTo(fake.a, '/streams')).toHaveLength(1);
    fake.a.mode = 'ok';
    fake.a.live.set(s.channel, stream);
    await sync();
    expect(fake.callsTo(fake.a, '/streams')).toHaveLength(1);
    t.clock.advance(31_000);
    await sync();
    expect(fake.callsTo(fake.a, '/streams')).toHaveLength(2);
    expect(await item(s.id)).toMatchObject({ status: 'live' });
  });

  it('an answer with Ratelimit-Remaining 0 counts, and the next call waits for Ratelimit-Reset', async () => {
    const s = await addStreamer('provider_a');
    await sync(); // its avatar is known: the next round makes only the streams call
    fake.a.mode = 'last_point';
    fake.a.resetAt = Math.floor(t.clock.now().getTime() / 1000) + 20;
    fake.a.live.set(s.channel, stream);
    await sync();
    expect(await item(s.id)).toMatchObject({ status: 'live' });
    fake.a.mode = 'ok';
    await sync();
    expect(fake.callsTo(fake.a, '/streams')).toHaveLength(2);
    t.clock.advance(21_000);
    await sync();
    expect(fake.callsTo(fake.a, '/streams')).toHaveLength(3);
  });

  it("Kick's 429 waits for Retry-After", async () => {
    await addStreamer('provider_b');
    fake.b.mode = 'rate_limited';
    await sync();
    fake.b.mode = 'ok';
    await sync();
    expect(fake.callsTo(fake.b, '/channels')).toHaveLength(1);
    t.clock.advance(31_000);
    await sync();
    expect(fake.callsTo(fake.b, '/channels')).toHaveLength(2);
  });
});

describe('answers that are not what was asked', () => {
  it("Kick's wrong-data batch (a channel that was not asked for) is refused whole", async () => {
    const s = await addStreamer('provider_b');
    fake.b.live.set(s.channel, stream);
    await sync();
    fake.b.live.clear();
    fake.b.mode = 'wrong_data';
    await sync();
    await sync();
    expect(await item(s.id)).toMatchObject({ status: 'live', viewers: 1234 });
    expect((await admin.get('/api/sync')).body.provider_b.last_error).toMatch(/not asked for/);
  });

  it('a channel that cannot exist on the provider is not sent, so it cannot spoil its batch', async () => {
    const good = await addStreamer('provider_a');
    const bad = await addStreamer('provider_a', 'not/a-login');
    fake.a.live.set(good.channel, stream);
    await sync();
    const asked = fake.callsTo(fake.a, '/streams').flatMap((q) => q.getAll('user_login'));
    expect(asked).toContain(good.channel);
    expect(asked).not.toContain(bad.channel);
    expect(await item(good.id)).toMatchObject({ status: 'live' });
    expect(await item(bad.id)).toMatchObject({ synced_at: null });
  });

  it('an HTML answer (a Cloudflare block) is logged once, as a warning an operator understands', async () => {
    await addStreamer('provider_a');
    const logged = () => t.logs.filter((l) => /provider_a.*HTML page/.test(l));
    const before = logged().length;
    fake.a.mode = 'html_403';
    await sync();
    await sync();
    await sync();
    const lines = logged().slice(before);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 40 });
    expect(lines[0]).toMatch(/403.*Cloudflare or firewall block.*left unchanged/);
  });
});

describe('app tokens', () => {
  it('one app token serves many rounds; a 401 renews it once and the check succeeds', async () => {
    const s = await addStreamer('provider_a');
    await sync();
    await sync();
    const tokens = fake.a.issued.length;
    fake.a.mode = 'unauthorized_once';
    fake.a.live.set(s.channel, stream);
    await sync();
    expect(fake.a.issued.length).toBe(tokens + 1);
    expect(await item(s.id)).toMatchObject({ status: 'live' });
  });

  it('a token refused again after renewal is an error that names the cause and changes nothing', async () => {
    const s = await addStreamer('provider_a');
    await sync();
    const before = await item(s.id);
    const tokens = fake.a.issued.length;
    fake.a.mode = 'unauthorized';
    fake.a.live.set(s.channel, stream);
    await sync();
    expect(fake.a.issued.length).toBe(tokens + 1); // renewed once, not in a loop
    expect(await item(s.id)).toEqual(before);
    expect((await admin.get('/api/sync')).body.provider_a.last_error).toMatch(/401.*client id and secret/);
  });

  it('a token URL that refuses the client is an error that changes nothing', async () => {
    const s = await addStreamer('provider_b');
    await sync();
    const before = await item(s.id);
    const secret = fake.b.clientSecret;
    fake.b.clientSecret = 'rotated';
    fake.b.mode = 'unauthorized_once';
    fake.b.live.set(s.channel, stream);
    await sync();
    fake.b.clientSecret = secret;
    expect(await item(s.id)).toEqual(before);
    expect((await admin.get('/api/sync')).body.provider_b.last_error).toMatch(
      /app token request: answered 400/,
    );
  });

  it('the token is renewed before it expires, without waiting for a 401', async () => {
    await addStreamer('provider_b');
    await sync();
    const tokens = fake.b.issued.length;
    t.clock.advance(5000 * 1000);
    await sync();
    expect(fake.b.issued.length).toBe(tokens + 1);
    expect(fake.b.calls.every((c) => c.path === '/channels')).toBe(true);
  });

  it('no app token or client secret reaches an answer, a log line or the database', async () => {
    const secrets = [...fake.a.issued, ...fake.b.issued, fake.a.clientSecret, fake.b.clientSecret];
    expect(fake.a.issued.length).toBeGreaterThan(0);
    expect(fake.b.issued.length).toBeGreaterThan(0);
    const answers = [
      (await admin.get('/api/sync')).text,
      (await admin.get('/api/streamers?all=1')).text,
      (await t.client().get('/api/streamers')).text,
    ];
    const tables = ['streamers', 'sync_state', 'sync_lease', 'settings', 'secrets', 'audit_log'] as const;
    const rows = await Promise.all(tables.map((table) => t.db.selectFrom(table).selectAll().execute()));
    const haystack = [...answers, ...t.logs, JSON.stringify(rows)].join('\n');
    for (const secret of secrets) expect(haystack).not.toContain(secret);
  });
});
