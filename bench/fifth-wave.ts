/**
 * The fifth wave's rows (issues 41 to 44), after the main service stopped: each group writes
 * what it needs into the same database (fifth-seed.ts) and starts a service of its own on it,
 * with the settings its feature needs. The audience ranking first (over the 1,000 streamers),
 * then the go-live's push messages and the digest (the list beside them is the 1,000), then
 * the schedules (which add 9,000 streamers).
 */
import { sql } from 'kysely';
import type { CeilingOptions } from './ceilings.ts';
import { type Context, selected } from './compare.ts';
import { audienceRows, VOTES } from './audience.ts';
import { benchUsers, seedLikes, seedSchedules, seedVotes, withDatabase } from './fifth-seed.ts';
import { waitIdle } from './idle.ts';
import { mailRows } from './mail-digest.ts';
import { pushRows } from './push-live.ts';
import { DASH, type Row } from './report.ts';
import { SCHEDULED, scheduleRows } from './schedules.ts';
import { scheduleSyncRows } from './schedule-sync.ts';
import type { Service } from '../test/helpers/service.ts';

export interface FifthWaveSetup {
  databaseUrl: string;
  dir: string;
  streamerIds: number[];
  busyStreamerId: number;
  comments: number;
  ceilingDatabase: (name: string) => CeilingOptions;
  start: (name: string, env: Record<string, string>, nodeArgs?: string[], port?: number) => Promise<Service>;
}

type Base = Omit<Context, 'service'>;

const GROUPS = {
  audience: ['sort=audience', 'votes'],
  push: ['push', 'go-live'],
  mail: ['digest', 'mail'],
  schedules: ['schedule', 'chat line', 'order=top'],
} as const;

/** Whether BENCH_ONLY names one of the group's rows (by a word of their names). */
const wanted = (only: readonly string[], names: readonly string[]) =>
  names.some((name) => selected(only, name));

async function withService(
  setup: FifthWaveSetup,
  peaks: (number | null)[],
  name: string,
  env: Record<string, string>,
  fn: (service: Service) => Promise<Row[]>,
): Promise<Row[]> {
  const service = await setup.start(name, env);
  try {
    await waitIdle(service);
    return await fn(service);
  } finally {
    peaks.push(service.peakRssMiB());
    await service.stop();
  }
}

export async function fifthWaveRows(
  base: Base,
  setup: FifthWaveSetup,
  peaks: (number | null)[],
): Promise<Row[]> {
  const rows: Row[] = [];
  /** A group that could not be measured is a miss; the others still run. */
  const group = async (name: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      base.log(`${name}: could not be measured: ${message}`);
      rows.push({
        path: name,
        service: DASH,
        serviceP99: DASH,
        ceiling: DASH,
        ceilingP99: DASH,
        ratio: DASH,
        target: DASH,
        ok: false,
        enforced: base.enforce,
        notes: [`could not be measured: ${message.slice(0, 300)}`],
      });
    }
  };
  const at = () => new Date().toISOString();
  const ids = setup.streamerIds;

  if (wanted(base.only, GROUPS.audience))
    await group('issue 44 (audience)', async () => {
      const votes = await withDatabase(setup.databaseUrl, async (db) => {
        await benchUsers(db, at());
        return seedVotes(db, Math.round(VOTES / ids.length), at());
      });
      base.log(`audience: ${votes} votes on ${ids.length} streamers`);
      rows.push(
        // The sign-in stand-in for the voter, without the stand-in's live sync (its status changes
        // would make the ranking again and again).
        ...(await withService(
          setup,
          peaks,
          'service (audience)',
          { DEV_PROVIDERS: 'true', LIVE_SYNC_SECONDS: '0' },
          (service) =>
            audienceRows({ ...base, service }, setup.dir, ids[6]!, ids, votes, setup.ceilingDatabase),
        )),
      );
      // The later rows measure their own work over the usual catalogue, without the million votes.
      await withDatabase(setup.databaseUrl, async (db, { kind }) => {
        await db.deleteFrom('votes').execute();
        // Each vote deleted updated its streamer's tally row (migration 035): on PostgreSQL the
        // 1,000 rows of vote_tallies left a million dead versions (161 MB) that every list read
        // until autovacuum came by, and the list beside the go-live read 0.11x instead of 2.1x.
        if (kind === 'postgres') await sql`vacuum analyze votes, vote_tallies`.execute(db);
      });
    });
  if (wanted(base.only, GROUPS.push))
    await group('issue 41 (push)', async () => {
      rows.push(
        ...(await pushRows(
          base,
          {
            databaseUrl: setup.databaseUrl,
            dir: setup.dir,
            liveIds: [ids[7]!, ids[8]!, ids[11]!],
            postedId: ids[9]!,
            ceilingDatabase: setup.ceilingDatabase,
            start: (name, env) => setup.start(name, env),
          },
          peaks,
        )),
      );
    });
  if (wanted(base.only, GROUPS.mail))
    await group('issue 42 (mail)', async () => {
      rows.push(
        ...(await mailRows(
          base,
          {
            databaseUrl: setup.databaseUrl,
            dir: setup.dir,
            postedId: ids[10]!,
            ceilingDatabase: setup.ceilingDatabase,
            start: setup.start,
          },
          peaks,
        )),
      );
    });
  if (wanted(base.only, GROUPS.schedules))
    await group('issue 43 (schedules)', async () => {
      const seeded = await withDatabase(setup.databaseUrl, async (db) => {
        await benchUsers(db, at());
        const likes = await seedLikes(db, setup.busyStreamerId, at());
        // From the next full hour: every segment is upcoming for the whole row.
        const from = Math.ceil(Date.now() / 3600_000) * 3600_000;
        const segments = await seedSchedules(db, SCHEDULED, from, at());
        const channel = await db
          .selectFrom('streamers')
          .select('provider_a')
          .where('name', '=', 'Scheduled 5000')
          .executeTakeFirst();
        return { likes, segments, channel: channel?.provider_a ?? 'scheduled_5000' };
      });
      base.log(
        `schedules: ${seeded.segments} segments; ${seeded.likes} likes on the busy streamer's comments`,
      );
      rows.push(
        ...(await withService(setup, peaks, 'service (schedules)', {}, (service) =>
          scheduleRows(
            { ...base, service },
            {
              dir: setup.dir,
              busyStreamerId: setup.busyStreamerId,
              comments: setup.comments,
              likes: seeded.likes,
              chatLine: `/bot/twitch/${seeded.channel}.txt`,
            },
          ),
        )),
      );
      // Then live sync over the same streamers, every schedule due (its rows' names hold both words).
      if (selected(base.only, 'live sync, streamers with schedules'))
        rows.push(
          ...(await scheduleSyncRows(base, { databaseUrl: setup.databaseUrl, start: setup.start }, peaks)),
        );
    });
  return rows;
}
