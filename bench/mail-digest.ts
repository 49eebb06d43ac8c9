/**
 * Issue 42's rows: the weekly digest to 10,000 confirmed addresses (written into the database
 * by fifth-seed.ts) against a local SMTP server in its own process (smtp-sink.ts, the
 * `smtp-server` package, counting per recipient).
 *
 * The digest goes at Monday 08:00 in the service's TZ, on the service's clock. The service has
 * no setting for its clock (tests move their in-process app's clock), so the row preloads
 * clock-shift.ts into the service process: started on the real time (its idle memory is read
 * then), it is moved on SIGUSR2 to a minute past the next Monday 08:00 UTC (TZ=UTC), which
 * starts the digest through the service's own schedule; the week before that slot holds the
 * ratings the run seeded, so every address has a digest to get. While it runs, the public list
 * and comment posting are measured (beside.ts; without it, before it and once it is over); then the service is killed (SIGKILL) in the
 * middle and started again on the same database with its clock at the same shift, and the
 * digest is followed to its end. Judged: all accepted within 5 minutes (the restart's wait for
 * the lease included), none twice, RSS at most 40 MiB over idle while it runs: the restarted
 * instance's, from its start to the digest's end, with no load beside it (the first instance's
 * peak, loads included, is in the log).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { compileChild } from './build.ts';
import type { CeilingOptions } from './ceilings.ts';
import type { Context } from './compare.ts';
import { Beside, fixedRow, Forked } from './beside.ts';
import { closeIdle } from './http.ts';
import { waitIdle } from './idle.ts';
import type { SmtpStats } from './protocol.ts';
import { ms, type Row } from './report.ts';
import type { Service } from '../test/helpers/service.ts';
import { benchUsers, seedMailUsers, withDatabase } from './fifth-seed.ts';

const DEADLINE_MS = 5 * 60_000;
const RSS_TARGET_MIB = 40;
const WEEK = 7 * 24 * 3600_000;
/** The service's messages that were being handed over when it was killed (mail/sender.ts CONNECTIONS). */
const IN_FLIGHT = 4;

export interface MailSetup {
  databaseUrl: string;
  dir: string;
  postedId: number;
  ceilingDatabase: (name: string) => CeilingOptions;
  start: (name: string, env: Record<string, string>, nodeArgs: string[], port?: number) => Promise<Service>;
}

/** A minute past the first Monday 08:00 UTC after `now`. */
export function nextDigestSlot(now: number): number {
  const d = new Date(now);
  const monday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + ((8 - d.getUTCDay()) % 7), 8);
  return (monday > now ? monday : monday + WEEK) + 60_000;
}

export async function mailRows(
  ctx: Omit<Context, 'service'>,
  setup: MailSetup,
  peaks: (number | null)[],
): Promise<Row[]> {
  const sink = new Forked<'stats', SmtpStats>('smtp-sink');
  let service: Service | undefined;
  const stopService = async () => {
    if (!service) return;
    peaks.push(service.peakRssMiB());
    await service.stop();
    service = undefined;
  };
  try {
    const { port } = await sink.first<{ port: number }>();
    const at = new Date().toISOString();
    const addresses = await withDatabase(setup.databaseUrl, async (db) => {
      await benchUsers(db, at);
      return seedMailUsers(db, at);
    });
    const offset = nextDigestSlot(Date.now()) - Date.now();
    const shift = compileChild('clock-shift');
    const env = {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Bench <bench@example.test>',
      TZ: 'UTC',
      BENCH_CLOCK_OFFSET_MS: String(offset),
    };
    const first = await setup.start('service (mail)', { ...env, BENCH_CLOCK_ON_SIGNAL: '1' }, [
      '--import',
      shift,
    ]);
    service = first;
    ctx.log(`mail: ${addresses} confirmed addresses, weekly digest; clock moved by ${ms(offset)} on SIGUSR2`);
    closeIdle();
    await waitIdle(first);
    const idle = first.rssMiB() ?? 0;
    let peak = idle;
    let startedAt = 0;
    const sampling = setInterval(() => {
      if (service === first) peak = Math.max(peak, first.rssMiB() ?? 0);
    }, 200);
    const c: Context = { ...ctx, service: first };
    const digest = `weekly digest to ${addresses.toLocaleString('en-US')} addresses`;
    const beside = new Beside(c, {
      beside: `, ${digest} running`,
      dir: setup.dir,
      streamerId: setup.postedId,
      ceilingDatabase: setup.ceilingDatabase,
    });
    try {
      await beside.before();
      await beside.during({
        start: async () => {
          startedAt = performance.now();
          process.kill(first.pid, 'SIGUSR2');
          // The digest has begun when the first message is accepted.
          while ((await sink.ask('stats')).accepted === 0 && performance.now() - startedAt < 30_000)
            await sleep(50);
        },
        running: async () => (await sink.ask('stats')).recipients < addresses,
      });
    } finally {
      clearInterval(sampling);
    }
    // Killed in the middle (if it is not over yet), then started again on the same database.
    const atKill = await sink.ask('stats');
    const killed = atKill.recipients < addresses;
    ctx.log(
      `mail: ${atKill.recipients} accepted when ${killed ? 'the service was killed (SIGKILL)' : 'the loads ended (not killed: it was over)'}; ` +
        `RSS idle ${idle.toFixed(0)} MiB, peak while sending with the loads beside ${peak.toFixed(0)} MiB`,
    );
    // The digest's own memory: the restarted instance's, from its start (idle, before it sends)
    // to the digest's end, with no load beside it (the loads' own memory is the main run's row).
    let own = { idle, peak };
    if (killed) {
      peaks.push(first.peakRssMiB());
      await first.kill9();
      service = undefined;
      service = await setup.start('service (mail, restarted)', env, ['--import', shift], first.port);
      const restarted = service.rssMiB() ?? 0;
      own = { idle: restarted, peak: restarted };
    }
    const sample = () => {
      if (killed && service) own.peak = Math.max(own.peak, service.rssMiB() ?? 0);
    };
    let stats = await sink.ask('stats');
    let quiet = 0;
    while (
      stats.recipients < addresses &&
      performance.now() - startedAt < DEADLINE_MS + 30_000 &&
      quiet < 60
    ) {
      for (let i = 0; i < 5; i++) {
        sample();
        await sleep(200);
      }
      const now = await sink.ask('stats');
      // Stop following once nothing arrived for 60 s (the restart waits 30 s for the lease) (interrupted messages are never resent).
      quiet = now.accepted === stats.accepted ? quiet + 1 : 0;
      stats = now;
    }
    const took = (stats.lastAt || Date.now()) - (Date.now() - (performance.now() - startedAt));
    const interrupted = addresses - stats.recipients;
    ctx.log(
      `mail: ${stats.recipients} of ${addresses} recipients accepted, ${stats.twice} twice, in ${ms(took)}` +
        (interrupted > 0 ? `; ${interrupted} not accepted when the row stopped following` : '') +
        (killed
          ? `; restarted: RSS ${own.idle.toFixed(0)} MiB at its start, peak ${own.peak.toFixed(0)} MiB`
          : ''),
    );
    const notes: string[] = [];
    if (!killed) notes.push('the digest was over before the kill: the restart was not tested');
    if (stats.twice > 0) notes.push(`${stats.twice} recipients got it twice`);
    if (interrupted > IN_FLIGHT)
      notes.push(`${interrupted} recipients had nothing accepted within the row's time`);
    else if (interrupted > 0)
      notes.push(`${interrupted} in flight at the kill, not sent again (may have arrived)`);
    // The list and posting without the digest again, once it is over, on the instance that sent it.
    if (service) await beside.after({ ...c, service });
    return [
      fixedRow(
        c,
        `${digest}, killed and restarted: each accepted once`,
        `${stats.recipients.toLocaleString('en-US')} in ${ms(took)}`,
        '< 5 min, none twice',
        killed && stats.twice === 0 && interrupted <= IN_FLIGHT && took < DEADLINE_MS,
        notes,
      ),
      fixedRow(
        c,
        `${digest}: service RSS over idle`,
        `+${(own.peak - own.idle).toFixed(0)} MiB`,
        `<= ${RSS_TARGET_MIB} MiB`,
        own.peak - own.idle <= RSS_TARGET_MIB,
      ),
      ...beside.rows(),
    ];
  } finally {
    await stopService();
    sink.stop();
  }
}
