import { sql } from 'kysely';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { exportData } from '../src/cli/data.ts';
import { claimRows } from '../src/delivery/rows.ts';
import { startApp, type TestApp, useApp } from './helpers/app.ts';
import { reopen } from './helpers/database.ts';
import { startFakeDiscord } from './helpers/fake-discord.ts';
import { startFakeLive } from './helpers/fake-live.ts';

// DECISIONS.md "Reaching out": Discord webhooks, against a fake Discord on 127.0.0.1.
const discord = await startFakeDiscord();
const live = await startFakeLive();
afterAll(async () => {
  await discord.close();
  await live.close();
});
const METRICS_TOKEN = 'discord-metrics-token-0123456789abcdef';
const t = await useApp({
  DISCORD_API_URL: discord.apiUrl,
  DISCORD_TIMEOUT_MS: '1500',
  METRICS_TOKEN,
  ...live.env(),
});
// The fake's rate-limit buckets run on the app's clock, which until() moves.
discord.now = () => t.clock.now().getTime();
const admin = await t.admin();
const EVENTS = ['rated', 'suggested', 'live', 'reported'];

beforeEach(async () => {
  await admin.put('/api/settings', { discord_webhooks: [] });
  discord.reset();
  live.reset();
});

/** Sets the webhooks; returns them as GET shows them. */
async function connect(...hooks: { url: string; events?: string[] }[]) {
  const res = await admin.put('/api/settings', { discord_webhooks: hooks });
  expect(res.status, res.text).toBe(200);
  return (await admin.get('/api/settings')).body.discord_webhooks as {
    id: number;
    url: string;
    events: string[];
    disabled_reason: string | null;
  }[];
}

/**
 * Runs the senders as their timer would (look, then wait for the lanes they started) and moves
 * their clocks on a quarter second at a time until `done`: a backoff or a rate limit passes on
 * the apps' clock, not the wall's. At most 10 s of that clock (DECISIONS.md: delivered within
 * 10 s), whatever the machine's speed.
 */
async function until(done: () => boolean | Promise<boolean>, apps: TestApp[] = [t]) {
  for (let elapsed = 0; ; elapsed += 250) {
    for (const a of apps) await a.app.discord.look();
    for (const a of apps) await a.app.discord.idle();
    if (await done()) return;
    if (elapsed >= 10_000) throw new Error('not done within 10 s of the clock');
    for (const a of apps) a.clock.advance(250);
  }
}

/** Waits until `n` posts of the webhook were taken. */
async function delivered(id: string, n: number, apps?: TestApp[]) {
  await until(() => discord.delivered(id).length >= n, apps);
  expect(discord.delivered(id)).toHaveLength(n);
  return discord.delivered(id);
}

/** Lets the sender run a few more rounds, so that a second send would have happened. */
async function settle() {
  for (let i = 0; i < 3; i++) {
    await t.app.discord.look();
    await t.app.discord.idle();
  }
}

/** Discord's tries since the last call, by result, as /metrics counts them (`deliveries_total`). */
const tries = (() => {
  let last: Record<string, number> = {};
  return async () => {
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const counts = [
      ...(await res.text()).matchAll(/^deliveries_total\{channel="discord",result="(\w+)"\} (\d+)$/gm),
    ];
    const now: Record<string, number> = Object.fromEntries(
      counts.map(([, result, n]) => [result ?? '', Number(n)]),
    );
    const since = Object.fromEntries(Object.entries(now).map(([r, n]) => [r, n - (last[r] ?? 0)]));
    last = now;
    return Object.fromEntries(Object.entries(since).filter(([, n]) => n !== 0));
  };
})();

const rate = (id: number, v: number) =>
  admin.put(`/api/streamers?id=${id}`, { r: { s: v, g: v, a: v, v, n: v, ns: v, o: v } });

describe('the log while the outbox cannot be read', () => {
  it('one warning with the error when reading starts failing, none while it keeps failing, one line when it works again', async () => {
    const lines = () =>
      t.logs
        .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { stack?: string } })
        .filter((l) => l.msg.startsWith('discord: reading the outbox'));
    const before = lines().length;
    await sql`alter table discord_outbox rename to discord_outbox_away`.execute(t.db);
    try {
      for (let i = 0; i < 5; i++) await t.app.discord.look();
    } finally {
      await sql`alter table discord_outbox_away rename to discord_outbox`.execute(t.db);
    }
    const failing = lines().slice(before);
    expect(failing.map((l) => l.level)).toEqual([40]);
    expect(failing[0]!.err?.stack).toMatch(/discord_outbox/);
    await t.app.discord.look();
    const after = lines().slice(before);
    expect(after.map((l) => l.level)).toEqual([40, 30]);
    expect(after[1]!.msg).toMatch(/works again after \d+ failed tries/);
    await t.app.discord.look();
    expect(lines().slice(before)).toHaveLength(2);
  });
});

describe('webhooks in the settings', () => {
  it('the administrator sees them with the token cut to 6 characters and disabled_reason; nobody else sees them', async () => {
    const hook = discord.webhook();
    const shown = await connect({ url: hook.url, events: ['live', 'rated'] });
    expect(shown).toEqual([
      {
        id: expect.any(Number),
        url: `${discord.apiUrl}${hook.id}/${hook.token.slice(0, 6)}`,
        events: ['rated', 'live'],
        disabled_reason: null,
      },
    ]);
    const anonymous = await t.client().get('/api/settings');
    expect(anonymous.body).toEqual({
      auth_enabled: expect.any(Boolean),
      guest_hold: expect.any(String),
      guest_challenge: expect.any(String),
      refuse_repeats: expect.any(Boolean),
    });
    const user = await t.signedIn(await t.user());
    expect(Object.keys((await user.get('/api/settings')).body).sort()).toEqual([
      'auth_enabled',
      'guest_challenge',
      'guest_hold',
      'refuse_repeats',
    ]);
  });

  it('accepts Discord addresses and DISCORD_API_URL only: else 400 Invalid webhook URL and nothing changes', async () => {
    const kept = discord.webhook();
    await connect({ url: kept.url });
    const bad = [
      'http://discord.com/api/webhooks/1/abc',
      'https://discord.com.evil.example/api/webhooks/1/abc',
      'https://discord.com/api/webhooks/',
      'https://discord.com/api/webhooks/abc/def',
      'https://evil.example/api/webhooks/1/abc',
      'https://discord.com/api/webhooks/1/abc def',
      'javascript:alert(1)',
      '',
    ];
    for (const url of bad) {
      const res = await admin.put('/api/settings', { discord_webhooks: [{ url, events: ['rated'] }] });
      expect(res.status, url).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid webhook URL', code: 'invalid_webhook_url' });
    }
    for (const body of [{ discord_webhooks: [{ events: ['rated'] }] }, { discord_webhooks: ['x'] }]) {
      expect((await admin.put('/api/settings', body)).body.code).toBe('invalid_webhook_url');
    }
    const listed = (await admin.get('/api/settings')).body.discord_webhooks;
    expect(listed.map((w: { url: string }) => w.url)).toEqual([
      `${discord.apiUrl}${kept.id}/${kept.token.slice(0, 6)}`,
    ]);

    for (const url of [
      'https://discord.com/api/webhooks/123456789012345678/AbC-_def',
      'https://discordapp.com/api/webhooks/1/token?thread_id=5',
    ]) {
      expect((await admin.put('/api/settings', { discord_webhooks: [{ url }] })).status, url).toBe(200);
    }
  });

  it('at most 5; events a subset of the four (all when left out); a wrong shape is refused', async () => {
    const six = Array.from({ length: 6 }, () => ({ url: discord.webhook().url }));
    const tooMany = await admin.put('/api/settings', { discord_webhooks: six });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe('too_many_webhooks');
    expect((await admin.get('/api/settings')).body.discord_webhooks).toEqual([]);

    const five = await connect(...six.slice(0, 5));
    expect(five).toHaveLength(5);
    expect(five.every((w) => w.events.join() === EVENTS.join())).toBe(true);

    const unknown = await admin.put('/api/settings', {
      discord_webhooks: [{ url: discord.webhook().url, events: ['rated', 'deleted'] }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'Invalid events', code: 'invalid_field' });
    const notList = await admin.put('/api/settings', { discord_webhooks: { url: 'x' } });
    expect(notList.body).toEqual({ error: 'Invalid discord_webhooks', code: 'invalid_field' });
    expect((await admin.get('/api/settings')).body.discord_webhooks).toHaveLength(5);
  });

  it('PUT without either setting is 400 Missing auth_enabled; auth_enabled alone keeps the webhooks', async () => {
    await connect({ url: discord.webhook().url });
    expect((await admin.put('/api/settings', {})).body.code).toBe('missing_auth_enabled');
    await admin.put('/api/settings', { auth_enabled: true });
    expect((await admin.get('/api/settings')).body).toMatchObject({
      auth_enabled: true,
      discord_webhooks: [{}],
    });
    await admin.put('/api/settings', { auth_enabled: false });
  });

  it('the cut URL that GET shows keeps a webhook; one left out is removed; only the administrator may PUT', async () => {
    const a = discord.webhook();
    const b = discord.webhook();
    const [first] = await connect({ url: a.url }, { url: b.url });
    const again = await connect({ url: first!.url, events: ['suggested'] });
    expect(again).toEqual([{ ...first, events: ['suggested'] }]);

    const streamer = await t.client().post('/api/streamers', { name: 'Kept Webhook Fan' });
    expect(streamer.status).toBe(201);
    expect((await delivered(a.id, 1))[0]?.token).toBe(a.token);
    await settle();
    expect(discord.posts.filter((p) => p.id === b.id)).toEqual([]);

    const user = await t.signedIn(await t.user({}, { mod: true }));
    expect((await user.put('/api/settings', { discord_webhooks: [] })).status).toBe(401);
    expect((await t.client().put('/api/settings', { discord_webhooks: [] })).status).toBe(401);
    expect((await admin.get('/api/settings')).body.discord_webhooks).toHaveLength(1);
  });
});

describe('events', () => {
  it('rated: when a streamer enters the Public view and when its total changes, once per webhook, in the documented shape', async () => {
    const a = discord.webhook();
    const b = discord.webhook();
    const other = discord.webhook();
    await connect({ url: a.url, events: ['rated'] }, { url: b.url }, { url: other.url, events: ['live'] });
    const id = await t.streamer('Rated <Twice> & Co');
    expect((await rate(id, 5)).status).toBe(200);
    const [post] = await delivered(a.id, 1);
    expect(post?.body).toEqual({
      username: 'Hodnocení streamerů',
      embeds: [
        {
          title: 'Rated & Co',
          url: `${t.config.baseUrl}/s/${id}-rated-co`,
          description: expect.stringContaining('35/70'),
          color: expect.any(Number),
          timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      ],
    });
    await delivered(b.id, 1);

    await rate(id, 5); // the same total: no event
    await t.client().get('/api/streamers');
    await rate(id, 6);
    const posts = await delivered(a.id, 2);
    expect((posts[1]?.body as { embeds: { description: string }[] }).embeds[0]?.description).toContain(
      '42/70',
    );
    await rate(id, 0); // leaves the Public view: no event
    await settle();
    expect(discord.delivered(a.id)).toHaveLength(2);
    expect(discord.delivered(b.id)).toHaveLength(2);
    expect(discord.posts.filter((p) => p.id === other.id)).toEqual([]);
  });

  it('a rating whose rename then fails (409) queues nothing; the same rating without it is told once (issue 40)', async () => {
    const a = discord.webhook();
    await connect({ url: a.url, events: ['rated'] });
    const id = await t.streamer('Rated Then Refused');
    await t.streamer('Name Already Taken');
    const refused = await admin.put(`/api/streamers?id=${id}`, {
      r: { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 },
      name: 'name already TAKEN',
    });
    expect(refused.status).toBe(409);
    await settle();
    expect(discord.delivered(a.id)).toEqual([]);
    expect((await rate(id, 5)).status).toBe(200);
    await delivered(a.id, 1);
    await settle();
    expect(discord.delivered(a.id)).toHaveLength(1);
  });

  it("suggested: a visitor's suggestion, not the administrator's add", async () => {
    const hook = discord.webhook();
    await connect({ url: hook.url, events: ['suggested'] });
    await admin.post('/api/streamers?admin=1', { name: 'Added By Admin' });
    const res = await t
      .client()
      .post('/api/streamers', { name: 'Suggested Kicker', platform: 'provider_b', submitter: 'secret fan' });
    const [post] = await delivered(hook.id, 1);
    expect(post?.body).toMatchObject({
      embeds: [{ title: 'Suggested Kicker', url: `${t.config.baseUrl}/s/${res.body.id}-suggested-kicker` }],
    });
    expect(JSON.stringify(post?.body)).not.toContain('secret fan');
    await settle();
    expect(discord.delivered(hook.id)).toHaveLength(1);
  });

  it('live: when live sync sees a streamer go live, not while it stays live', async () => {
    const hook = discord.webhook();
    await connect({ url: hook.url, events: ['live'] });
    const id = await t.streamer('Live Wire', { s: 5 });
    live.a.live.set('livewire', {
      game: 'Chess',
      title: 'Blitz **all** night',
      viewers: 10,
      since: '2026-11-21T20:00:00Z',
    });
    await t.app.liveSync.runOnce();
    const [post] = await delivered(hook.id, 1);
    expect(post?.body).toMatchObject({
      embeds: [{ title: 'Live Wire', url: `${t.config.baseUrl}/s/${id}-live-wire` }],
    });
    expect((post?.body as { embeds: { description: string }[] }).embeds[0]?.description).toContain(
      'Blitz \\*\\*all\\*\\* night',
    );
    await t.app.liveSync.runOnce();
    await settle();
    expect(discord.delivered(hook.id)).toHaveLength(1);
  });

  it('live: a suggested, unrated streamer (outside the Public view) gets no post (issue 45, week 18)', async () => {
    const hook = discord.webhook();
    await connect({ url: hook.url, events: ['live'] });
    const suggested = await t.client().post('/api/streamers', { name: 'Not Yet Rated' });
    expect(suggested.status).toBe(201);
    const added = await t.streamer('Added Unrated');
    const rated = await t.streamer('Rated Live', { s: 5 });
    const on = { game: 'Chess', title: 'Evening', viewers: 5, since: '2026-11-21T20:00:00Z' };
    for (const channel of ['notyetrated', 'addedunrated', 'ratedlive']) live.a.live.set(channel, on);
    await t.app.liveSync.runOnce();
    const [post] = await delivered(hook.id, 1);
    expect(post?.body).toMatchObject({
      embeds: [{ title: 'Rated Live', url: `${t.config.baseUrl}/s/${rated}-rated-live` }],
    });
    await settle();
    expect(discord.delivered(hook.id)).toHaveLength(1);
    // The stream is still recorded: only the post is left out.
    const status = async (id: number) => (await admin.get(`/api/streamers?id=${id}&all=1`)).body.status;
    expect(await status(added)).toBe('live');
    expect(await status(suggested.body.id as number)).toBe('live');
  });
});

describe("Discord's answers", () => {
  it('a 429 waits for retry_after (seconds, in the body) and then sends once', async () => {
    const hook = discord.webhook();
    await connect({ url: hook.url, events: ['suggested'] });
    discord.script(hook.id, ['rate_limited'], 1.5);
    await t.client().post('/api/streamers', { name: 'Patient One' });
    await delivered(hook.id, 1);
    const [limited, sent] = discord.posts.filter((p) => p.id === hook.id);
    expect(limited?.status).toBe(429);
    expect(sent!.at - limited!.at).toBeGreaterThanOrEqual(1500);
    await settle();
    expect(discord.posts.filter((p) => p.id === hook.id)).toHaveLength(2);
  });

  it("a burst past the webhook's bucket keeps to Discord's limits and delivers each event once", async () => {
    const hook = discord.webhook();
    await connect({ url: hook.url, events: ['suggested'] });
    discord.limit = 2;
    for (let i = 0; i < 4; i++) await t.client().post('/api/streamers', { name: `Burst ${i}` });
    const posts = await delivered(hook.id, 4);
    const titles = posts.map((p) => (p.body as { embeds: { title: string }[] }).embeds[0]?.title);
    expect(new Set(titles).size).toBe(4);
    // X-RateLimit-Remaining 0 made it wait for the bucket's reset instead of meeting a 429.
    expect(discord.posts.filter((p) => p.id === hook.id && p.status === 429)).toEqual([]);
  });

  for (const [status, remove] of [
    [404, true],
    [401, false],
  ] as const) {
    it(`a ${status} disables that webhook (disabled_reason) and nothing more is sent to it; the others go on`, async () => {
      const gone = discord.webhook();
      const fine = discord.webhook();
      // A wrong token is a 401; a deleted webhook a 404.
      const url = remove ? gone.url : gone.url.replace(gone.token, `${gone.token.slice(0, 10)}wrong`);
      await connect({ url, events: ['suggested'] }, { url: fine.url, events: ['suggested'] });
      if (remove) discord.remove(gone.id);
      await tries();
      await t.client().post('/api/streamers', { name: `Gone ${status} A` });
      await delivered(fine.id, 1);
      expect((await admin.get('/api/settings')).body.discord_webhooks[0].disabled_reason).toBe(
        remove ? 'Discord answered 404: Unknown Webhook' : 'Discord answered 401: Invalid Webhook Token',
      );
      await t.client().post('/api/streamers', { name: `Gone ${status} B` });
      await delivered(fine.id, 2);
      await settle();
      expect(discord.posts.filter((p) => p.id === gone.id).map((p) => p.status)).toEqual([status]);
      // Counted, not only said in the log: the two that went, and the one its webhook refused.
      expect(await tries()).toEqual({ sent: 2, disabled: 1 });
      const [shown] = (await admin.get('/api/settings')).body.discord_webhooks;
      expect((await admin.post('/api/settings/discord/test', { id: shown.id })).body.code).toBe(
        'webhook_disabled',
      );
    });
  }

  it('other failures are tried 3 more times, then dropped; a success within them is delivered once', async () => {
    const failing = discord.webhook();
    const recovering = discord.webhook();
    await connect(
      { url: failing.url, events: ['suggested'] },
      { url: recovering.url, events: ['suggested'] },
    );
    discord.script(failing.id, [
      'server_error',
      'server_error',
      'server_error',
      'server_error',
      'server_error',
    ]);
    discord.script(recovering.id, ['server_error', 'server_error']);
    await tries();
    await t.client().post('/api/streamers', { name: 'Flaky Discord' });
    await delivered(recovering.id, 1);
    const state = async () =>
      (await t.db.selectFrom('discord_outbox').select('state').where('event', '=', 'suggested').execute())
        .map((r) => r.state)
        .sort();
    await until(async () => (await state()).join() === 'failed,sent');
    await settle();
    expect(discord.posts.filter((p) => p.id === failing.id)).toHaveLength(4);
    expect(discord.posts.filter((p) => p.id === recovering.id).map((p) => p.status)).toEqual([500, 500, 204]);
    // /metrics counts each try by how it ended: the one dropped is not in the log alone.
    expect(await tries()).toEqual({ retried: 5, failed: 1, sent: 1 });
    expect((await admin.get('/api/settings')).body.discord_webhooks[0].disabled_reason).toBe(null);
  });

  it('a post that got no answer may have arrived: it is never sent again, and the request that caused it did not wait', async () => {
    const hook = discord.webhook();
    await connect({ url: hook.url, events: ['rated', 'suggested'] });
    discord.script(hook.id, ['hang']);
    const id = await t.streamer('Slow Discord');
    expect((await rate(id, 4)).status).toBe(200);
    await t.app.discord.look();
    await expect.poll(() => discord.hanging(), { timeout: 10_000 }).toBe(1);
    // Discord holds the post open; requests are answered meanwhile.
    expect((await t.client().post('/api/streamers', { name: 'Meanwhile' })).status).toBe(201);
    expect(discord.hanging()).toBe(1);
    await delivered(hook.id, 1);
    await expect.poll(() => discord.hanging(), { timeout: 10_000 }).toBe(0);
    await endsUnknownNeverSentAgain(hook.id);
  });

  it('an answer with a header Node.js refuses is no answer: the post may have arrived, so it ends unknown and is never sent again', async () => {
    const hook = discord.webhook();
    await connect({ url: hook.url, events: ['rated', 'suggested'] });
    discord.script(hook.id, ['garbled']);
    await tries();
    const id = await t.streamer('Garbled Discord');
    expect((await rate(id, 4)).status).toBe(200);
    expect((await t.client().post('/api/streamers', { name: 'After the garbled' })).status).toBe(201);
    await delivered(hook.id, 1);
    await endsUnknownNeverSentAgain(hook.id);
    // /metrics counts it as one that may have arrived; the service stays up.
    expect(await tries()).toEqual({ unknown: 1, sent: 1 });
    expect((await t.client().get('/healthz')).status).toBe(200);
  });
});

/**
 * The rating's post got no answer (it may have arrived): it ends `unknown` beside the suggestion
 * sent after it, and is not sent again once a retry would be due.
 */
async function endsUnknownNeverSentAgain(hookId: string) {
  const states = async () =>
    (await t.db.selectFrom('discord_outbox').select(['event', 'state']).orderBy('id').execute()).map(
      (r) => `${r.event}:${r.state}`,
    );
  expect(await states()).toEqual(['rated:unknown', 'suggested:sent']);
  t.clock.advance(1500); // a retry would be due after 1 s
  await settle();
  expect(await states()).toEqual(['rated:unknown', 'suggested:sent']);
  expect(discord.posts.filter((p) => p.id === hookId).map((p) => p.status)).toEqual([0, 204]);
}

describe('test-send', () => {
  it('POST /api/settings/discord/test queues a test message (202); GET tells what came of it', async () => {
    const hook = discord.webhook();
    const [shown] = await connect({ url: hook.url, events: [] });
    const res = await admin.post('/api/settings/discord/test', { id: shown!.id });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ ok: true, delivery_id: expect.any(Number) });
    const [post] = await delivered(hook.id, 1);
    expect(post?.body).toMatchObject({
      username: 'Hodnocení streamerů',
      embeds: [{ url: `${t.config.baseUrl}/` }],
    });
    expect((await admin.get(`/api/settings/discord/test?delivery_id=${res.body.delivery_id}`)).body).toEqual({
      state: 'sent',
      error: null,
    });

    expect((await admin.post('/api/settings/discord/test', { id: 999999 })).body.code).toBe(
      'webhook_not_found',
    );
    expect((await admin.post('/api/settings/discord/test', {})).body.code).toBe('missing_id');
    expect((await admin.get('/api/settings/discord/test?delivery_id=999999')).body.code).toBe(
      'delivery_not_found',
    );
    expect((await t.client().post('/api/settings/discord/test', { id: shown!.id })).status).toBe(401);
    expect((await t.client().get(`/api/settings/discord/test?delivery_id=1`)).status).toBe(401);
  });
});

describe('webhook URLs are secrets (SECURITY.md 36)', () => {
  it('the token is in no answer, audit entry, export or log line, failures included', async () => {
    const hook = discord.webhook();
    const gone = discord.webhook();
    await connect({ url: hook.url }, { url: gone.url });
    discord.remove(gone.id);
    await t.client().post('/api/streamers', { name: 'Secret Keeper' });
    await delivered(hook.id, 1);
    expect((await admin.get('/api/settings')).body.discord_webhooks[1].disabled_reason).not.toBe(null);
    const answers = [
      await admin.get('/api/settings'),
      await t.client().get('/api/settings'),
      await admin.get('/api/audit'),
      await admin.get('/api/streamers?all=1'),
    ].map((r) => r.text);
    const exported = JSON.stringify(await exportData(t.db));
    for (const token of [hook.token, gone.token]) {
      const tail = token.slice(6);
      for (const text of [...answers, exported, ...t.logs]) expect(text).not.toContain(tail);
    }
  });
});

describe('one sender', () => {
  it('of two claims of one delivery at once, only one gets it', async () => {
    const hook = discord.webhook();
    const [shown] = await connect({ url: hook.url, events: [] });
    const now = new Date().toISOString();
    const row = await t.db
      .insertInto('discord_outbox')
      .values({ webhook_id: shown!.id, event: 'test', payload: '{}', not_before: now, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const far = new Date(Date.now() + 3_600_000).toISOString();
    // The deliverer's claim (delivery/rows.ts), by three instances at once.
    const claims = await Promise.all(
      ['x', 'y', 'z'].map((holder) => claimRows(t.db, 'discord_outbox', [row.id], holder, far)),
    );
    expect(claims.flat()).toEqual([row.id]);
    await t.db.deleteFrom('discord_outbox').execute();
  });

  it('two instances on one database: one holds the lease and sends everything', async () => {
    const second = await startApp(
      { DISCORD_API_URL: discord.apiUrl, DISCORD_TIMEOUT_MS: '1500' },
      { database: reopen(t.database) },
    );
    // Both clocks tell the same time; until() moves them together.
    second.clock.offset = t.clock.offset;
    try {
      const hook = discord.webhook();
      await connect({ url: hook.url, events: ['suggested'] });
      // One post per 2 seconds: the holder waits between posts and keeps the lease meanwhile.
      discord.limit = 1;
      for (let i = 0; i < 3; i++) {
        await (i % 2 ? t : second).client().post('/api/streamers', { name: `Two Instances ${i}` });
      }
      // The first to look takes the lease and sends one; the other, with two due, sends nothing.
      await t.app.discord.look();
      await t.app.discord.idle();
      await second.app.discord.look();
      await second.app.discord.idle();
      expect(discord.posts.filter((p) => p.id === hook.id).map((p) => p.status)).toEqual([204]);
      await delivered(hook.id, 3, [t, second]);
      const holders = await t.db
        .selectFrom('discord_outbox')
        .select('claimed_by')
        .distinct()
        .where('state', '=', 'sent')
        .execute();
      expect(holders).toHaveLength(1);
      expect([t.app.discord.holder, second.app.discord.holder]).toContain(holders[0]?.claimed_by);
    } finally {
      await second.close();
    }
  });
});

describe('reported', () => {
  it("a comment's first open report: once, however many report it; again after staff dismissed them", async () => {
    const hook = discord.webhook();
    await connect({ url: hook.url, events: ['reported'] });
    const id = await t.streamer('Reported Streamer');
    const comment = await t.client().post('/api/comments', { streamer_id: id, body: 'buy *cheap* pills' });
    expect(comment.status).toBe(201);
    const reporters = [t.client(), await t.signedIn(await t.user()), await t.signedIn(await t.user())];
    const answers = await Promise.all(
      reporters.map((c) => c.post('/api/reports', { comment_id: comment.body.id, reason: 'spam' })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    const [post] = await delivered(hook.id, 1);
    expect(post?.body).toMatchObject({
      embeds: [{ title: 'Reported Streamer', url: `${t.config.baseUrl}/s/${id}-reported-streamer` }],
    });
    expect((post?.body as { embeds: { description: string }[] }).embeds[0]?.description).toContain(
      'buy \\*cheap\\* pills',
    );
    await settle();
    expect(discord.delivered(hook.id)).toHaveLength(1);

    const dismissed = await admin.put('/api/moderation/comments', {
      ids: [comment.body.id],
      action: 'dismiss',
    });
    expect(dismissed.status).toBe(200);
    await t.client().post('/api/reports', { comment_id: comment.body.id, reason: 'abuse' });
    await delivered(hook.id, 2);
  });
});
