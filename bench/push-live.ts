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
 * are measured (beside.ts).
 */
import { createECDH, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CeilingOptions } from './ceilings.ts';
import type { Context } from './compare.ts';
import { besideRows, fixedRow, Forked } from './beside.ts';
import { closeIdle } from './http.ts';
import { waitIdle } from './idle.ts';
import type { PushStats } from './protocol.ts';
import { ms, type Row } from './report.ts';
import { startFakeLive } from '../test/helpers/fake-live.ts';
import type { Service } from '../test/helpers/service.ts';
import { benchUsers, seedFollows, seedSubscriptions, USERS, withDatabase } from './fifth-seed.ts';

const DEADLINE_MS = 60_000;
const RSS_TARGET_MIB = 40;
const CHANNELS = ['benchlivea', 'benchliveb'] as const;
/** Live sync's interval for the row: a go-live is read within this many seconds. */
const SYNC_SECONDS = 2;

export interface PushSetup {
  databaseUrl: string;
  dir: string;
  /** Two streamers the followers follow, and one to post comments on. */
  liveIds: [number, number];
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
      return seedSubscriptions(db, serviceUrl, keys, at);
    });
    ctx.log(`push: ${USERS} followers of #${setup.liveIds.join(' and #')}, ${subscriptions} subscriptions`);
    const { PROVIDER_A_CLIENT_ID, PROVIDER_A_CLIENT_SECRET, PROVIDER_A_TOKEN_URL, PROVIDER_A_API_URL } =
      twitch.env();
    service = await setup.start('service (push)', {
      PUSH_SERVICE_URL: serviceUrl,
      PROVIDER_A_CLIENT_ID: PROVIDER_A_CLIENT_ID!,
      PROVIDER_A_CLIENT_SECRET: PROVIDER_A_CLIENT_SECRET!,
      PROVIDER_A_TOKEN_URL: PROVIDER_A_TOKEN_URL!,
      PROVIDER_A_API_URL: PROVIDER_A_API_URL!,
      LIVE_SYNC_SECONDS: String(SYNC_SECONDS),
    });
    const live = service;
    const c: Context = { ...ctx, service: live };
    closeIdle();
    // The first sync rounds read every channel (offline but for none) and the avatars.
    await sleep(3 * SYNC_SECONDS * 1000);
    await waitIdle(live);
    const streamsCalls = () => twitch.callsTo(twitch.a, '/streams').length;
    /** Goes live; resolves when the sync has read the live channel, with that moment. */
    const goLive = async (channel: string) => {
      const before = streamsCalls();
      twitch.a.live.set(channel, {
        game: 'Just Chatting',
        title: 'Live for the benchmark',
        viewers: 1000,
        since: new Date().toISOString(),
      });
      while (streamsCalls() === before) await sleep(20);
      return performance.now();
    };
    const finished = (s: PushStats) => s.delivered + s.gone >= subscriptions;

    // The first go-live alone: time, never twice, memory.
    const idle = live.rssMiB() ?? 0;
    let peak = idle;
    await fake.ask('reset');
    const read = await goLive(CHANNELS[0]);
    let stats = await fake.ask('stats');
    while (!finished(stats) && performance.now() - read < 2 * DEADLINE_MS) {
      await sleep(200);
      peak = Math.max(peak, live.rssMiB() ?? 0);
      stats = await fake.ask('stats');
    }
    const took = performance.now() - read;
    await sleep(2000);
    stats = await fake.ask('stats');
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
        [
          ...(finished(stats)
            ? []
            : [`${subscriptions - stats.delivered - stats.gone} never reached the push service`]),
          ...(stats.twice > 0 ? [`${stats.twice} subscriptions got the message twice`] : []),
          ...(stats.badShape > 0 ? [`${stats.badShape} requests without VAPID, aes128gcm or TTL`] : []),
        ],
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
    rows.push(
      ...(await besideRows(c, {
        beside: `, ${ten} sending`,
        dir: setup.dir,
        streamerId: setup.postedId,
        ceilingDatabase: setup.ceilingDatabase,
        work: {
          start: async () => void (await goLive(CHANNELS[1])),
          running: async () => {
            const s = await fake.ask('stats');
            return s.delivered < remaining;
          },
        },
      })),
    );
    return rows;
  } finally {
    if (service) {
      peaks.push(service.peakRssMiB());
      await service.stop();
    }
    fake.stop();
    await twitch.close();
  }
}
