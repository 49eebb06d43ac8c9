/**
 * Issue 41's rows: a streamer with 10,000 followers, each with a push subscription, goes live.
 * The followers, follows and subscriptions are written into the database (fifth-seed.ts); the
 * go-live takes the service's own path: its live sync reads a fake Twitch (the tests' fake,
 * test/helpers/fake-live.ts, served from this process) that now says the channel is live, the
 * sync starts the stream and notifies the followers, and the push sender delivers to a fake
 * push service in its own process (fake-push-server.ts: 201 after 50 ms, 410 for every 50th
 * endpoint, a 429 with Retry-After now and then, counts per endpoint). Judged: every message
 * delivered or its subscription removed within 60 s of the sync reading the live channel,
 * none twice, the service's RSS at most 40 MiB over its idle figure while it sends; then a
 * second streamer with the same followers goes live while the public list and comment posting
 * are measured (beside.ts); then, on PostgreSQL, a third goes live with a second instance
 * beside the first: the 10,000 shared out between them (each row's `claimed_by`), none twice.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CeilingOptions } from './ceilings.ts';
import type { Context } from './compare.ts';
import { Beside, fixedRow, Forked } from './beside.ts';
import { closeIdle } from './http.ts';
import { waitIdle } from './idle.ts';
import type { PushStats } from './protocol.ts';
import { ms, type Row } from './report.ts';
import { startFakeLive } from '../test/helpers/fake-live.ts';
import type { Service } from '../test/helpers/service.ts';
import { benchUsers, seedFollows, seedSubscriptions, USERS, withDatabase } from './fifth-seed.ts';

const DEADLINE_MS = 60_000;
const RSS_TARGET_MIB = 40;
const CHANNELS = ['benchlivea', 'benchliveb', 'benchlivec'] as const;
/**
 * Live sync's interval, the service's default: each batch of channels is read once in it, so a
 * go-live is read within it. (At 2 s, the bench's earlier setting, the sync's batches changed
 * the public list five times a second, and the rows beside the go-live measured that.)
 */
const SYNC_SECONDS = 60;
/** Time for a second instance to start and settle beside the first. */
const SETTLE_MS = 6000;

export interface PushSetup {
  databaseUrl: string;
  dir: string;
  /** Three streamers the followers follow, and one to post comments on. */
  liveIds: [number, number, number];
  postedId: number;
  ceilingDatabase: (name: string) => CeilingOptions;
  start: (name: string, env: Record<string, string>) => Promise<Service>;
}

export async function pushRows(
  ctx: Omit<Context, 'service'>,
  setup: PushSetup,
  peaks: (number | null)[],
): Promise<Row[]> {
  const fake = new Forked<'stats' | 'reset', PushStats>('fake-push-server');
  const twitch = await startFakeLive();
  let service: Service | undefined;
  let second: Service | undefined;
  try {
    const { port } = await fake.first<{ port: number }>();
    const serviceUrl = `http://127.0.0.1:${port}/push/`;
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const keys = {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    };
    const at = new Date().toISOString();
    const subscriptions = await withDatabase(setup.databaseUrl, async (db) => {
      await benchUsers(db, at);
      await seedFollows(db, setup.liveIds, at);
      for (const [i, id] of setup.liveIds.entries()) {
        await db
          .updateTable('streamers')
          .set({ platform: 'provider_a', provider_a: CHANNELS[i]!, status: 'offline' })
          .where('id', '=', id)
          .execute();
      }
      // Offline, as live sync leaves a streamer it saw go offline: its open stream ended at its
      // last sighting (the streams_end_check constraint). An earlier row's service ran the
      // development stand-ins (DEV_PROVIDERS), which had about half of the streamers live; a
      // stream left open would make the go-live continue it, and a continued stream notifies
      // nobody (history/record.ts).
      await db
        .updateTable('streams')
        .set((eb) => ({ ended_at: eb.ref('last_seen_at') }))
        .where('streamer_id', 'in', setup.liveIds)
        .where('ended_at', 'is', null)
        .execute();
      return seedSubscriptions(db, serviceUrl, keys, at);
    });
    ctx.log(`push: ${USERS} followers of #${setup.liveIds.join(' and #')}, ${subscriptions} subscriptions`);
    const { PROVIDER_A_CLIENT_ID, PROVIDER_A_CLIENT_SECRET, PROVIDER_A_TOKEN_URL, PROVIDER_A_API_URL } =
      twitch.env();
    const env = {
      PUSH_SERVICE_URL: serviceUrl,
      PROVIDER_A_CLIENT_ID: PROVIDER_A_CLIENT_ID!,
      PROVIDER_A_CLIENT_SECRET: PROVIDER_A_CLIENT_SECRET!,
      PROVIDER_A_TOKEN_URL: PROVIDER_A_TOKEN_URL!,
      PROVIDER_A_API_URL: PROVIDER_A_API_URL!,
    };
    service = await setup.start('service (push)', env);
    const live = service;
    const c: Context = { ...ctx, service: live };
    closeIdle();
    const streams = () => twitch.callsTo(twitch.a, '/streams');
    /** Whether the sync read `channel` in a call after the first `from`. */
    const readSince = (from: number, channel: string) =>
      streams()
        .slice(from)
        .some((query) => query.getAll('user_login').includes(channel));
    // The first sync round reads every channel (offline but for none) and the avatars.
    const firstRound = performance.now();
    while (
      !CHANNELS.every((c) => readSince(0, c)) &&
      performance.now() - firstRound < 3 * SYNC_SECONDS * 1000
    )
      await sleep(200);
    await waitIdle(live);
    /** Goes live; resolves when the sync has read the live channel, with that moment. */
    const goLive = async (channel: string) => {
      const before = streams().length;
      twitch.a.live.set(channel, {
        game: 'Just Chatting',
        title: 'Live for the benchmark',
        viewers: 1000,
        since: new Date().toISOString(),
      });
      while (!readSince(before, channel)) await sleep(20);
      return performance.now();
    };
    const finished = (s: PushStats, expected = subscriptions) => s.delivered + s.gone >= expected;
    const problems = (s: PushStats, expected = subscriptions) => [
      ...(finished(s, expected) ? [] : [`${expected - s.delivered - s.gone} never reached the push service`]),
      ...(s.twice > 0 ? [`${s.twice} subscriptions got the message twice`] : []),
      ...(s.badShape > 0 ? [`${s.badShape} requests without VAPID, aes128gcm or TTL`] : []),
    ];
    /** A go-live sent: its figures when every message arrived or half past the deadline, and the peak RSS. */
    const sent = async (channel: string, expected = subscriptions) => {
      await fake.ask('reset');
      let peak = live.rssMiB() ?? 0;
      const read = await goLive(channel);
      let stats = await fake.ask('stats');
      while (!finished(stats, expected) && performance.now() - read < 2 * DEADLINE_MS) {
        await sleep(200);
        peak = Math.max(peak, live.rssMiB() ?? 0);
        stats = await fake.ask('stats');
      }
      const took = performance.now() - read;
      await sleep(2000);
      return { stats: await fake.ask('stats'), took, peak };
    };

    // The first go-live alone: time, never twice, memory.
    const idle = live.rssMiB() ?? 0;
    const { stats, took, peak } = await sent(CHANNELS[0]);
    if (!finished(stats)) {
      const states = await withDatabase(setup.databaseUrl, async (db) => ({
        streams: await db.selectFrom('streams').select(['streamer_id', 'started_at']).execute(),
        notifications: await db
          .selectFrom('notifications')
          .select((eb) => ['kind', eb.fn.countAll().as('n')])
          .groupBy('kind')
          .execute(),
        outbox: await db
          .selectFrom('push_outbox')
          .select((eb) => ['state', eb.fn.countAll().as('n')])
          .groupBy('state')
          .execute(),
      }));
      ctx.log(`push: not finished: ${JSON.stringify(states)}; service log: ${live.tail(8)}`);
    }
    ctx.log(
      `push: ${stats.delivered} delivered, ${stats.gone} gone (410), ${stats.rateLimited} answered 429, ` +
        `${stats.twice} twice, ${stats.badShape} malformed, ${stats.requests} requests in ${ms(took)}; ` +
        `RSS idle ${idle.toFixed(0)} MiB, peak while sending ${peak.toFixed(0)} MiB`,
    );
    const ten = `${subscriptions.toLocaleString('en-US')} followers' push subscriptions, a go-live`;
    const rows: Row[] = [
      fixedRow(
        c,
        `${ten}: each delivered or removed`,
        `${(stats.delivered + stats.gone).toLocaleString('en-US')} in ${ms(took)}`,
        '< 60 s, none twice',
        finished(stats) && took < DEADLINE_MS && stats.twice === 0 && stats.badShape === 0,
        problems(stats),
      ),
      fixedRow(
        c,
        `${ten}: service RSS over idle`,
        `+${(peak - idle).toFixed(0)} MiB`,
        `<= ${RSS_TARGET_MIB} MiB`,
        peak - idle <= RSS_TARGET_MIB,
      ),
    ];

    // The second streamer goes live with the loads beside.
    await waitIdle(live);
    await fake.ask('reset');
    const remaining = subscriptions - stats.gone;
    const beside = new Beside(c, {
      beside: `, ${ten} sending`,
      dir: setup.dir,
      streamerId: setup.postedId,
      ceilingDatabase: setup.ceilingDatabase,
    });
    await beside.before();
    const running = async () => (await fake.ask('stats')).delivered < remaining;
    await beside.during({ start: async () => void (await goLive(CHANNELS[1])), running });
    const endFrom = performance.now();
    while ((await running()) && performance.now() - endFrom < 2 * DEADLINE_MS) await sleep(500);
    await beside.after(c);
    rows.push(...beside.rows());

    // PostgreSQL, for several instances: a second one beside the first, and the third streamer
    // goes live. Both send (the lease's holder queues; each row is claimed by one), none twice.
    if (!setup.databaseUrl.startsWith('sqlite:')) {
      // The second go-live's last messages first (a 429 pauses the push service's lane for a
      // second, which looks idle from outside): none of them may count as this row's.
      const unsent = () =>
        withDatabase(setup.databaseUrl, async (db) =>
          Number(
            (
              await db
                .selectFrom('push_outbox')
                .select((eb) => eb.fn.countAll<number | string>().as('n'))
                .where('state', 'in', ['pending', 'sending'])
                .executeTakeFirst()
            )?.n ?? 0,
          ),
        );
      const waitFrom = performance.now();
      while ((await unsent()) > 0 && performance.now() - waitFrom < 2 * DEADLINE_MS) await sleep(500);
      await waitIdle(live);
      second = await setup.start('service (push, a second instance)', env);
      await sleep(SETTLE_MS);
      const before = await withDatabase(setup.databaseUrl, (db) =>
        db
          .selectFrom('push_outbox')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst(),
      );
      const two = await sent(CHANNELS[2], remaining);
      const shares = await withDatabase(setup.databaseUrl, (db) =>
        db
          .selectFrom('push_outbox')
          .select((eb) => ['claimed_by', eb.fn.countAll<number | string>().as('n')])
          .where('id', '>', Number(before?.id ?? 0))
          .groupBy('claimed_by')
          .execute(),
      );
      const each = shares
        .filter((r) => r.claimed_by !== null)
        .map((r) => Number(r.n))
        .sort((a, b) => b - a);
      ctx.log(
        `push, two instances: ${two.stats.delivered} delivered, ${two.stats.twice} twice in ${ms(two.took)}; ` +
          `claimed ${each.map((n) => n.toLocaleString('en-US')).join(' and ')}`,
      );
      rows.push(
        fixedRow(
          c,
          `${ten}, two instances on PostgreSQL: shared out`,
          `${(two.stats.delivered + two.stats.gone).toLocaleString('en-US')} in ${ms(two.took)} ` +
            `(${each.map((n) => n.toLocaleString('en-US')).join(' + ')})`,
          '< 60 s, none twice, both send',
          finished(two.stats, remaining) &&
            two.took < DEADLINE_MS &&
            two.stats.twice === 0 &&
            each.length === 2,
          [
            ...problems(two.stats, remaining),
            ...(each.length === 2 ? [] : [`sent by ${each.length} instance(s)`]),
          ],
        ),
      );
    }
    return rows;
  } finally {
    for (const s of [service, second]) {
      if (!s) continue;
      peaks.push(s.peakRssMiB());
      await s.stop();
    }
    fake.stop();
    await twitch.close();
  }
}
