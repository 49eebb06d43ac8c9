/**
 * Stream history's write cost (issue 28): 10,000 streamers live at once, one sync round's
 * database work, timed per round. The provider answers are made in memory, 100 channels a
 * batch as provider_a's checks are; each batch is one `writeTransaction` through `applyBatch`
 * (the streamers' rows, the samples, the streams and the kept 30-day figures), as the poller
 * writes it. The first round starts the streams; the next ones add a sample to each.
 */
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../src/db/connect.ts';
import { pgDriver } from '../src/db/pg-driver.ts';
import type { DbContext } from '../src/db/context.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { writeTransaction } from '../src/db/transaction.ts';
import type { BatchAnswer, LiveStream } from '../src/sync/provider.ts';
import { applyBatch, syncTargets } from '../src/sync/queries.ts';
import { DASH, ms, type Row } from './report.ts';
import { streamerRow } from '../test/helpers/rows.ts';

export const LIVE_STREAMERS = 10_000;
export const BATCH = 100;
/** The target for one round. */
export const ROUND_TARGET_MS = 2000;

export interface RoundTimes {
  /** The round that starts every stream. */
  first: number;
  /** Rounds that add a sample to every open stream. */
  next: number[];
  streams: number;
  samples: number;
}

async function seedStreamers(database: DbContext, at: string): Promise<void> {
  for (let k = 0; k < LIVE_STREAMERS; k += 500) {
    await database.db
      .insertInto('streamers')
      .values(
        Array.from({ length: Math.min(500, LIVE_STREAMERS - k) }, (_, i) =>
          streamerRow(`Bench ${k + i}`, at, { provider_a: `bench_${k + i}` }),
        ),
      )
      .execute();
  }
}

/** Migrates the (empty) database, adds the streamers and times `rounds` sync rounds. */
export async function timeSyncRounds(database: DbContext, rounds = 4): Promise<RoundTimes> {
  await migrateToLatest(database.db);
  const now0 = Date.parse('2026-11-27T00:00:00.000Z');
  await seedStreamers(database, new Date(now0).toISOString());
  const targets = await syncTargets(database.db, 'provider_a');
  const round = async (r: number) => {
    const now = new Date(now0 + r * 60_000).toISOString();
    const started = performance.now();
    for (let k = 0; k < targets.length; k += BATCH) {
      const batch = targets.slice(k, k + BATCH);
      const live = new Map<string, LiveStream>(
        batch.map((t, i) => [
          t.channel,
          {
            game: `Game ${(i + r) % 7}`,
            title: `Title ${r}`,
            viewers: 100 + i + r,
            since: new Date(now0 - 60_000).toISOString(),
          },
        ]),
      );
      const answer: BatchAnswer = { live, avatars: new Map(), ids: new Map() };
      await writeTransaction(database, (trx) => applyBatch(trx, 'provider_a', batch, answer, now));
    }
    return performance.now() - started;
  };
  const first = await round(0);
  const next: number[] = [];
  for (let r = 1; r < rounds; r++) next.push(await round(r));
  const count = async (table: 'streams' | 'stream_samples') =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst()
      )?.n,
    );
  return { first, next, streams: await count('streams'), samples: await count('stream_samples') };
}

/**
 * `npm run bench`'s row: the rounds on a database of their own (an SQLite file, or a schema
 * of the run's PostgreSQL database), judged by the slowest round against ROUND_TARGET_MS.
 */
export async function syncRoundRow(
  url: string,
  enforced: boolean,
  log: (line: string) => void,
): Promise<Row> {
  const sqlite = url.startsWith('sqlite:');
  const schema = 'bench_history';
  const admin = async (statement: string) => {
    const client = new (pgDriver().Client)({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  if (!sqlite) await admin(`create schema ${schema}`);
  const database = openDatabase(url, sqlite ? {} : { pgSchema: schema });
  try {
    const t = await timeSyncRounds(database);
    log(
      `sync rounds of ${LIVE_STREAMERS} live streamers: first ${ms(t.first)}, next ${t.next.map(ms).join(', ')}; ` +
        `${t.streams} streams, ${t.samples} samples`,
    );
    const slowest = Math.max(t.first, ...t.next);
    return {
      path: `sync round, ${LIVE_STREAMERS.toLocaleString('en-US')} streamers live (stream history)`,
      service: `${ms(t.first)}, then ${t.next.map(ms).join(', ')}`,
      serviceP99: DASH,
      ceiling: DASH,
      ceilingP99: DASH,
      ratio: DASH,
      target: `< ${ms(ROUND_TARGET_MS)} a round`,
      ok: slowest < ROUND_TARGET_MS,
      enforced,
      notes: [],
    };
  } finally {
    await database.db.destroy();
    if (!sqlite) await admin(`drop schema ${schema} cascade`);
  }
}
