/**
 * SECURITY.md 30, PostgreSQL faults under load from keep-alive clients that read and post:
 * - the service started while the database is unreachable waits and comes up when it does;
 * - its backends are terminated again and again (pg_terminate_backend);
 * - the database disappears for a few seconds (a relay in front of PostgreSQL is cut; the full
 *   soak also stops and restarts the real server, and starts a service while it is down).
 * The processes stay alive, every answer is a 2xx or a clean 503 with Retry-After (no 500, no
 * hang), the service recovers within seconds, and nothing acknowledged is lost.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createPostgres, ensurePostgresUp, postgresBaseUrl, postgresCluster } from './lib/database.ts';
import { adminBrowser, Browser, createStreamer } from './lib/http.ts';
import { Ledger, verifyLedger } from './lib/ledger.ts';
import { is2xx, postComment, startWorkers, Tally, withRetryAfter } from './lib/load.ts';
import { Relay } from './lib/net.ts';
import { Service } from '../helpers/service.ts';
import { Findings, isMain, n, runScript, some, type Verdict } from './lib/verdict.ts';

export interface PgOutageOptions {
  /** How long the first service waits for an unreachable database before it appears (ms). */
  unreachableMs: number;
  terminations: number;
  /** Pause between terminations (ms). */
  everyMs: number;
  /** How long the relay stays cut (ms). */
  outageMs: number;
  /** Stop and restart the real PostgreSQL server (never in `npm test`: other tests share it). */
  restartServer: boolean;
  /** An answer slower than this is a hang; a service not answering 200 this long after a fault has not recovered. */
  hangMs: number;
  recoveryMs: number;
}

export const FULL: PgOutageOptions = {
  unreachableMs: 8000,
  terminations: 30,
  everyMs: 1000,
  outageMs: 5000,
  restartServer: true,
  hangMs: 10_000,
  recoveryMs: 5000,
};

/** Time until the service answers the public list with 200 again (ms), or null past the limit. */
async function recovery(service: Service, limitMs: number): Promise<number | null> {
  const started = performance.now();
  const b = new Browser(service.url);
  while (performance.now() - started < limitMs) {
    if ((await b.get('/api/streamers', { timeoutMs: limitMs })).status === 200)
      return performance.now() - started;
    await sleep(100);
  }
  return null;
}

export async function pgOutage(o: PgOutageOptions = FULL): Promise<Verdict> {
  const name = 'pg-outage';
  const findings = new Findings();
  const database = await createPostgres();
  const target = new URL(postgresBaseUrl());
  const relay = await Relay.create({ host: target.hostname, port: Number(target.port || 5432) });
  const viaRelay = new URL(database.url);
  viaRelay.host = relay.url;
  const services: Service[] = [];
  const ledger = new Ledger();
  const tally = new Tally();
  const done: string[] = [];
  let slowest = 0;
  let terminated = 0;
  const recovered = async (what: string, service: Service) => {
    const ms = await recovery(service, o.recoveryMs);
    if (ms === null)
      findings.fail(`${service.name} did not answer 200 within ${o.recoveryMs} ms after ${what}`);
    else slowest = Math.max(slowest, ms);
  };

  try {
    // 1. Started while the database is unreachable: it must wait, then come up.
    const first = await Service.spawn({ databaseUrl: viaRelay.toString(), name: 'service via relay' });
    services.push(first);
    await sleep(o.unreachableMs);
    if (
      findings.check(
        first.alive,
        () => `started while the database was unreachable, it exited: ${first.describeExit()}`,
      )
    ) {
      await relay.up();
      const started = performance.now();
      await first.ready(60_000).then(
        () => {
          const ms = performance.now() - started;
          findings.check(ms <= o.recoveryMs + 10_000, `came up ${n(ms)} ms after the database appeared`);
          done.push('start while unreachable ok');
        },
        (err: Error) => findings.fail(`started while the database was unreachable: ${err.message}`),
      );
    }
    await relay.up();
    if (!first.alive)
      services[0] = await Service.start({ databaseUrl: viaRelay.toString(), name: 'service via relay' });
    const direct = await Service.start({ databaseUrl: database.url, name: 'service' });
    services.push(direct);

    // Keep-alive clients reading and posting on both services.
    const admin = await adminBrowser(direct.url);
    const streamers = [await createStreamer(admin, 'Outage A'), await createStreamer(admin, 'Outage B')];
    const clients = services.flatMap((s) => [
      new Browser(s.url),
      new Browser(s.url),
      new Browser(s.url),
      new Browser(s.url),
    ]);
    const load = startWorkers(clients.length, (w, i) => {
      const b = clients[w]!;
      const streamer = streamers[i % 2]!;
      if (w % 2 === 0) return postComment(b, streamer, `outage client ${w} comment ${i}`, ledger, tally);
      const path = i % 2 ? '/api/streamers' : `/api/comments?streamer_id=${streamer}`;
      return b.get(path, { timeoutMs: o.hangMs }).then((a) => tally.record(`GET ${path.split('?')[0]}`, a));
    });
    await sleep(500);

    // 2. Backends terminated again and again.
    for (let i = 0; i < o.terminations; i++) {
      terminated += await database.terminateBackends();
      for (const s of services) await recovered(`termination ${i + 1}`, s);
      await sleep(o.everyMs);
    }
    findings.check(terminated > 0, 'no backend of the service was found to terminate');
    done.push(`${o.terminations} terminations (${terminated} backends)`);

    // 3. The database away for a while (the relay cut).
    await relay.down();
    await sleep(o.outageMs);
    await relay.up();
    await recovered('the relay outage', services[0]!);
    done.push(`${o.outageMs / 1000} s outage`);

    // 4. Full soak: the real server stopped and started; a service started while it is down.
    if (o.restartServer) {
      let late: Service | undefined;
      try {
        postgresCluster('stop');
        late = await Service.spawn({
          databaseUrl: database.url,
          name: 'service started while PostgreSQL was down',
        });
        services.push(late);
        await sleep(o.outageMs);
        findings.check(
          late.alive,
          () => `started while PostgreSQL was down, it exited: ${late!.describeExit()}`,
        );
      } finally {
        await ensurePostgresUp();
      }
      for (const s of services.slice(0, 2)) await recovered('the PostgreSQL restart', s);
      if (late?.alive) {
        await late
          .ready(o.recoveryMs + 10_000)
          .catch((err: Error) => findings.fail(`after the restart: ${err.message}`));
      }
      done.push('PostgreSQL restart');
    }

    await load.stop();
    // Each lost connection is one short line (stop 96).
    const lost = services.flatMap((s) => s.grep(/database connection lost/));
    const longest = Math.max(0, ...lost.map((line) => line.length));
    findings.check(longest < 1000, `a lost connection's log line has ${longest} characters`);
    for (const s of services) {
      findings.check(s.alive, () => `${s.name} died: ${s.describeExit()}`);
      const crash = s.grep(/Unhandled 'error' event|uncaught/i);
      findings.check(crash.length === 0, () => `${s.name} log: ${crash[0]?.slice(0, 200)}`);
    }
    const unexpected = tally.unexpected(
      (status, key) => is2xx(status) || (status === 503 && withRetryAfter(key)),
    );
    findings.check(unexpected.length === 0, () => `unexpected answers: ${some(unexpected)}`);
    findings.check(tally.slowestMs <= o.hangMs, `slowest answer ${n(tally.slowestMs)} ms`);
    findings.check(ledger.acknowledged > 0, 'no write was acknowledged at all');
    const { missing } = await verifyLedger(ledger, direct.url);
    findings.check(
      missing.length === 0,
      () => `${missing.length} acknowledged writes lost: ${some(missing)}`,
    );
  } catch (err) {
    findings.crashed(err, services);
  } finally {
    await ensurePostgresUp();
    await Promise.all(services.map((s) => s.stop()));
    await relay.down();
    await database.cleanup();
  }
  return findings.verdict(
    name,
    `${some(done, 9)}, ${n(ledger.acknowledged)} acknowledged writes, ${n(tally.count((s) => s === 503))} 503s, slowest recovery ${n(slowest)} ms`,
  );
}

if (isMain(import.meta.url)) await runScript('pg-outage', () => pgOutage());
