/**
 * Issue 43's sync row: live sync at its default interval over the 10,000 scheduled streamers
 * (fifth-seed.ts), every schedule due, against the tests' fake Twitch (test/helpers/fake-live.ts,
 * served from this process: one segment per broadcaster at `/helix/schedule`), watched from the
 * fake's side for three intervals and a half. Judged: the busiest minute's calls (each a point of
 * Twitch's 800 a minute, PROVIDERS.md); every channel's live status checked every round, at most
 * two intervals apart (the schedule reads delay live status by less than one round); and the
 * reads' pace, which must read all 10,000 within the hour a schedule stays fresh.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { fixedRow } from './beside.ts';
import type { Context } from './compare.ts';
import { withDatabase } from './fifth-seed.ts';
import type { Row } from './report.ts';
import { SCHEDULE } from '../src/shared/schedules.ts';
import { accountIdOf, startFakeLive } from '../test/helpers/fake-live.ts';
import type { Service } from '../test/helpers/service.ts';

/** Twitch's rate limit: points a minute, one a call (PROVIDERS.md). */
const POINTS_A_MINUTE = 800;
/** Live sync's default interval (config.ts `LIVE_SYNC_SECONDS`). */
const INTERVAL_MS = 60_000;
const ROUNDS = 3;

export interface ScheduleSyncSetup {
  databaseUrl: string;
  start: (name: string, env: Record<string, string>) => Promise<Service>;
}

/** The longest time between two live checks of one channel, and the fewest checks of any. */
function checkGaps(calls: { query: URLSearchParams; at: number }[], channels: number) {
  const last = new Map<string, number>();
  const checks = new Map<string, number>();
  let longest = 0;
  for (const { query, at } of calls) {
    for (const login of query.getAll('user_login')) {
      const before = last.get(login);
      if (before !== undefined) longest = Math.max(longest, at - before);
      last.set(login, at);
      checks.set(login, (checks.get(login) ?? 0) + 1);
    }
  }
  const fewest = checks.size < channels ? 0 : Math.min(...checks.values());
  return { longest, fewest };
}

/** The most calls in any 60 seconds. */
function busiestMinute(times: number[]): number {
  let most = 0;
  for (let from = 0, to = 0; to < times.length; to++) {
    while (times[to]! - times[from]! >= 60_000) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

export async function scheduleSyncRows(
  ctx: Omit<Context, 'service'>,
  setup: ScheduleSyncSetup,
  peaks: (number | null)[],
): Promise<Row[]> {
  const twitch = await startFakeLive();
  let service: Service | undefined;
  try {
    const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 86_400_000);
    const logins = await withDatabase(setup.databaseUrl, async (db) => {
      // Every streamer on Twitch (the catalogue's first 1,000 included: this group is the run's
      // last), every schedule due: last read more than an hour ago.
      await db
        .updateTable('streamers')
        .set({ platform: 'provider_a', provider_a: sql<string>`'benchsync_' || id` })
        .where((eb) => eb.or([eb('platform', '!=', 'provider_a'), eb('provider_a', '=', '')]))
        .execute();
      await db
        .updateTable('schedules')
        .set({ read_at: new Date(Date.now() - 2 * 3_600_000).toISOString() })
        .execute();
      const rows = await db
        .selectFrom('streamers')
        .select('provider_a')
        .where('platform', '=', 'provider_a')
        .where('provider_a', '!=', '')
        .execute();
      return rows.map((r) => r.provider_a.toLowerCase());
    });
    for (const login of logins) {
      twitch.a.schedules.set(accountIdOf(twitch.a, login), {
        segments: [
          {
            id: `sync-${login}`,
            start_time: start.toISOString().replace('.000', ''),
            end_time: new Date(start.getTime() + 2 * 3_600_000).toISOString().replace('.000', ''),
            title: 'Read by the sync',
            canceled_until: null,
            category: { id: '509658', name: 'Just Chatting' },
            is_recurring: true,
          },
        ],
        vacation: null,
      });
    }
    ctx.log(`schedule sync: ${logins.length} provider_a streamers, each with a schedule due`);
    const { PROVIDER_A_CLIENT_ID, PROVIDER_A_CLIENT_SECRET, PROVIDER_A_TOKEN_URL, PROVIDER_A_API_URL } =
      twitch.env();
    service = await setup.start('service (schedule sync)', {
      PROVIDER_A_CLIENT_ID: PROVIDER_A_CLIENT_ID!,
      PROVIDER_A_CLIENT_SECRET: PROVIDER_A_CLIENT_SECRET!,
      PROVIDER_A_TOKEN_URL: PROVIDER_A_TOKEN_URL!,
      PROVIDER_A_API_URL: PROVIDER_A_API_URL!,
    });
    const c: Context = { ...ctx, service };
    // Watched from the first live check for ROUNDS intervals and a half.
    const streams = () => twitch.a.calls.filter((call) => call.path === '/streams');
    while (streams().length === 0) await sleep(200);
    const from = streams()[0]!.at;
    const end = from + (ROUNDS + 0.5) * INTERVAL_MS;
    await sleep(end - Date.now());
    const calls = twitch.a.calls.filter((call) => call.at < end);
    const reads = calls.filter((call) => call.path === '/schedule').length;
    const points = busiestMinute(calls.map((call) => call.at));
    const { longest, fewest } = checkGaps(
      calls.filter((call) => call.path === '/streams'),
      logins.length,
    );
    const perRound = reads / (ROUNDS + 0.5);
    const hourMs = SCHEDULE.readEveryMs;
    const allWithin = perRound > 0 ? Math.ceil(logins.length / perRound) * INTERVAL_MS : Infinity;
    const onTime = fewest >= ROUNDS && longest <= 2 * INTERVAL_MS;
    ctx.log(
      `schedule sync: ${reads} schedule reads in ${ROUNDS + 0.5} intervals, each channel checked ${fewest} times ` +
        `at least, at most ${(longest / 1000).toFixed(1)} s apart; busiest minute ${points} calls`,
    );
    const name = `live sync, ${logins.length.toLocaleString('en-US')} streamers with schedules`;
    return [
      fixedRow(
        c,
        `${name}: Twitch calls in the busiest minute`,
        `${points} (${Math.round(perRound)} schedules a round)`,
        `<= ${POINTS_A_MINUTE}`,
        points <= POINTS_A_MINUTE,
      ),
      fixedRow(
        c,
        `${name}: a channel's live checks apart, all schedules read in`,
        `${(longest / 1000).toFixed(0)} s; ${allWithin === Infinity ? 'never' : `${Math.round(allWithin / 60_000)} min`}`,
        `<= ${(2 * INTERVAL_MS) / 1000} s; <= ${hourMs / 60_000} min`,
        onTime && allWithin <= hourMs,
        fewest < ROUNDS ? [`a channel was checked ${fewest} times in ${ROUNDS} rounds`] : [],
      ),
    ];
  } finally {
    if (service) {
      peaks.push(service.peakRssMiB());
      await service.stop();
    }
    await twitch.close();
  }
}
