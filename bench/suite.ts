/**
 * One database's run: start the service, seed it through the API, measure the read and write
 * paths against their ceilings, count the stored comments in the database itself, then time
 * cold starts on the existing database and report the peak memory.
 */
import { type CeilingOptions, startCeiling } from './ceilings.ts';
import { type Context, selected, type SuiteOptions } from './compare.ts';
import { eventStreamPaths } from './event-streams.ts';
import { fifthWaveRows } from './fifth-wave.ts';
import { syncRoundRow } from './history-round.ts';
import { historyYearRows } from './history-year.ts';
import { imagePaths } from './image-paths.ts';
import { notificationPaths } from './notifications.ts';
import { waitIdle } from './idle.ts';
import { readPaths } from './read-paths.ts';
import { signIn } from './sign-in.ts';
import { DASH, ms, ratio, type Row } from './report.ts';
import { ADMIN_PASSWORD, seed } from './seed.ts';
import { withDatabase } from './fifth-seed.ts';
import { storedRow, type Written, writePaths } from './write-paths.ts';
import { Service } from '../test/helpers/service.ts';

const COLD_STARTS = 3;

/** The built service with `npm start`'s command line, timed from spawn to its first /healthz 200. */
function startService(
  opts: SuiteOptions,
  name = 'service',
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  port?: number,
): Promise<Service> {
  return Service.start({
    name,
    from: 'dist',
    // Not the project directory, so that a developer's .env does not change what is measured.
    cwd: opts.dir,
    nodeArgs: [...opts.serviceNodeArgs, ...nodeArgs],
    ...(port === undefined ? {} : { port }),
    databaseUrl: opts.databaseUrl,
    // LOG_LEVEL and LOG_REQUESTS unset: measured at the default settings (issue 18).
    testSettings: false,
    env: { ADMIN_PASSWORD, RATE_LIMIT: 'off', ...env },
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type Fixed = Pick<Row, 'serviceP99' | 'ceilingP99' | 'enforced' | 'notes'>;

/** Starts on the existing database, against the bare driver start (median of 3 each). */
async function coldStart(opts: SuiteOptions, peaks: (number | null)[], row: Fixed): Promise<Row> {
  const coldStarts: number[] = [];
  const bareStarts: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    const again = await startService(opts, 'service (cold start)');
    coldStarts.push(again.startMs);
    peaks.push(again.peakRssMiB());
    await again.stop();
    const bare = await startCeiling('health', { databaseUrl: opts.databaseUrl });
    bareStarts.push(bare.startMs);
    await bare.stop();
  }
  opts.log(`cold starts: service ${coldStarts.map(ms).join(', ')}; bare ${bareStarts.map(ms).join(', ')}`);
  const cold = median(coldStarts);
  const bare = median(bareStarts);
  return {
    ...row,
    path: 'cold start, spawn to first /healthz 200',
    service: ms(cold),
    ceiling: ms(bare),
    ratio: ratio(cold / bare),
    target: '<= 1 s',
    ok: cold <= 1000,
  };
}

/** The rows measured on the service started with the sign-in stand-in (signedInRun). */
const SIGNED_IN_POSTING = 'POST /api/comments, signed-in user';

/**
 * What needs a signed-in visitor, on a service of its own over the same database started with
 * the sign-in stand-in (bench/sign-in.ts says why), after the main one stopped: comment posting
 * by a signed-in user (issue 29) and the notifications list (issue 27).
 */
async function signedInRun(
  opts: SuiteOptions,
  peaks: (number | null)[],
  written: { written: Written; beside: string }[],
  streamerIds: number[],
): Promise<Row[]> {
  const rows: Row[] = [];
  const service = await startService(opts, 'service (signed-in users)', { DEV_PROVIDERS: 'true' });
  try {
    const ctx: Context = { service, load: opts.load, enforce: opts.enforce, only: opts.only, log: opts.log };
    if (selected(opts.only, SIGNED_IN_POSTING)) {
      // One user: with rate limits off (as the bench runs) no per-user rule refuses a post, and
      // any answer but 201 shows in the row's notes.
      const cookie = await signIn(service.url, 'benchposter');
      const beside = SIGNED_IN_POSTING.slice('POST /api/comments'.length);
      const database = (name: string): CeilingOptions => ({ databaseUrl: opts.ceilingDatabaseUrl(name) });
      const writes = await writePaths(ctx, streamerIds[5]!, database, beside, {
        cookie,
        origin: service.url,
      });
      rows.push(...writes.rows);
      written.push({ written: writes.written, beside });
    }
    if (selected(opts.only, 'notifications'))
      rows.push(...(await notificationPaths(ctx, opts.dir, streamerIds[4]!)));
  } finally {
    peaks.push(service.peakRssMiB());
    await service.stop();
  }
  return rows;
}

export async function runSuite(opts: SuiteOptions): Promise<Row[]> {
  const rows: Row[] = [];
  const peaks: (number | null)[] = [];
  const written: { written: Written; beside: string }[] = [];
  let streamerIds: number[] = [];

  const service = await startService(opts);
  try {
    opts.log(`service started in ${ms(service.startMs)}; seeding through the API`);
    const seeded = await seed(service.url, opts, opts.log);
    streamerIds = seeded.streamerIds;
    // PostgreSQL: its statistics brought up to date, as autovacuum would (fifth-seed.ts).
    if (!opts.databaseUrl.startsWith('sqlite:')) await withDatabase(opts.databaseUrl, async () => undefined);
    await waitIdle(service);
    const ctx: Context = { service, load: opts.load, enforce: opts.enforce, only: opts.only, log: opts.log };
    rows.push(...(await readPaths(ctx, { ...opts, ...seeded })));
    rows.push(...(await imagePaths(ctx, { dir: opts.dir, streamerIds: seeded.streamerIds })));
    const database = (name: string): CeilingOptions => ({ databaseUrl: opts.ceilingDatabaseUrl(name) });
    if (selected(opts.only, 'POST /api/comments')) {
      const writes = await writePaths(ctx, seeded.streamerIds[1]!, database);
      rows.push(...writes.rows);
      written.push({ written: writes.written, beside: '' });
    }
    if (selected(opts.only, 'event streams')) {
      const [watchedId, postedId] = [seeded.streamerIds[2]!, seeded.streamerIds[3]!];
      const live = await eventStreamPaths(ctx, {
        dir: opts.dir,
        watchedId,
        postedId,
        ceilingDatabase: database,
      });
      rows.push(...live.rows);
      if (live.written) written.push({ written: live.written, beside: live.beside });
    }
  } finally {
    peaks.push(service.peakRssMiB());
    await service.stop();
  }
  if (selected(opts.only, 'notifications') || selected(opts.only, SIGNED_IN_POSTING))
    rows.push(...(await signedInRun(opts, peaks, written, streamerIds)));
  rows.push(
    ...(await fifthWaveRows(
      { load: opts.load, enforce: opts.enforce, only: opts.only, log: opts.log },
      {
        databaseUrl: opts.databaseUrl,
        dir: opts.dir,
        streamerIds,
        busyStreamerId: streamerIds[0]!,
        comments: opts.comments,
        ceilingDatabase: (name) => ({ databaseUrl: opts.ceilingDatabaseUrl(name) }),
        start: (name, env, nodeArgs, port) => startService(opts, name, env, nodeArgs, port),
      },
      peaks,
    )),
  );
  for (const w of written) {
    rows.push(storedRow(w.written, await opts.countStoredComments(w.written.streamerId), w.beside));
  }

  // SQLite only: the target is the file's size, and the seeding writes the file directly.
  if (opts.databaseUrl.startsWith('sqlite:') && selected(opts.only, 'year of history')) {
    rows.push(...(await historyYearRows(opts, startService, peaks)));
  }
  if (selected(opts.only, 'sync round')) {
    rows.push(await syncRoundRow(opts.ceilingDatabaseUrl('history'), opts.enforce, opts.log));
  }
  const row = { serviceP99: DASH, ceilingP99: DASH, enforced: opts.enforce, notes: [] };
  if (selected(opts.only, 'cold start')) rows.push(await coldStart(opts, peaks, row));
  const known = peaks.filter((p): p is number => p !== null);
  const peak = known.length > 0 ? Math.max(...known) : null;
  rows.push({
    ...row,
    path: 'peak RSS of the service',
    service: peak === null ? 'n/a (no /proc)' : `${peak.toFixed(0)} MiB`,
    ceiling: DASH,
    ratio: DASH,
    target: '<= 150 MiB',
    ok: peak !== null && peak <= 150,
  });
  return rows;
}
