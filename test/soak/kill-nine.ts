/**
 * SECURITY.md 26, crash safety: a SQLite server that is writing is killed with SIGKILL at
 * random moments and restarted on the same file. At the end the file passes
 * `PRAGMA integrity_check` and every acknowledged write (a 2xx answer) is there; no answer is a
 * 500 or a 503 without Retry-After.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createSqlite } from './lib/database.ts';
import { adminBrowser, Browser, createStreamer } from './lib/http.ts';
import { Ledger, verifyLedger } from './lib/ledger.ts';
import { is2xx, postComment, putRating, startWorkers, Tally, withRetryAfter } from './lib/load.ts';
import { Service } from '../helpers/service.ts';
import { Findings, isMain, n, runScript, some, type Verdict } from './lib/verdict.ts';

export interface KillNineOptions {
  kills: number;
  /** Anonymous clients posting comments. */
  commenters: number;
  /** Administrator clients each rating its own streamer. */
  raters: number;
  /** How long the server writes before each kill: a random time in this range (ms). */
  upMs: [number, number];
}

export const FULL: KillNineOptions = { kills: 50, commenters: 4, raters: 2, upMs: [200, 1500] };

export async function killNine(o: KillNineOptions = FULL): Promise<Verdict> {
  const name = 'kill-9';
  const findings = new Findings();
  const database = createSqlite();
  let service = await Service.start({ databaseUrl: database.url, name });
  const port = service.port;
  const ledger = new Ledger();
  const tally = new Tally();
  let kills = 0;
  let integrity = 'not checked';
  const warnings: string[] = [];
  try {
    const admin = await adminBrowser(service.url);
    const commentOn = [
      await createStreamer(admin, 'Kill Nine A'),
      await createStreamer(admin, 'Kill Nine B'),
    ];
    const raters = await Promise.all(Array.from({ length: o.raters }, () => adminBrowser(service.url)));
    const rated = await Promise.all(raters.map((_, i) => createStreamer(admin, `Kill Nine Rated ${i}`)));
    const commenters = Array.from({ length: o.commenters }, () => new Browser(service.url));

    const writers = startWorkers(o.commenters + o.raters, (w, i) => {
      if (w < o.commenters) {
        return postComment(
          commenters[w]!,
          commentOn[i % 2]!,
          `kill-9 writer ${w} comment ${i}`,
          ledger,
          tally,
        );
      }
      const r = w - o.commenters;
      return putRating(raters[r]!, rated[r]!, i + 1, ledger, tally);
    });

    for (kills = 0; kills < o.kills;) {
      const [min, max] = o.upMs;
      await sleep(min + Math.random() * (max - min));
      await service.kill9();
      warnings.push(...service.warnings());
      kills++;
      try {
        service = await Service.start({ databaseUrl: database.url, port, name });
      } catch (err) {
        findings.fail(`restart after kill ${kills} failed: ${(err as Error).message}`);
        break;
      }
    }
    await writers.stop();
    await service.kill9();
    warnings.push(...service.warnings());

    integrity = await database.integrity();
    findings.check(integrity === 'ok', `integrity_check: ${integrity.slice(0, 300)}`);
    findings.check(ledger.acknowledged > 0, 'no write was acknowledged at all');
    // A write refused with 503 and Retry-After (load shedding on a busy machine) is not
    // acknowledged, so it is not owed; a 500 or a bare 503 is a failure.
    const unexpected = tally.unexpected(
      (status, key) => status === 0 || is2xx(status) || (status === 503 && withRetryAfter(key)),
    );
    findings.check(
      unexpected.length === 0,
      () => `unexpected answers: ${some(unexpected)}; server warnings: ${some([...new Set(warnings)], 3)}`,
    );

    service = await Service.start({ databaseUrl: database.url, name });
    const { missing } = await verifyLedger(ledger, service.url);
    findings.check(
      missing.length === 0,
      () => `${missing.length} acknowledged writes lost: ${some(missing)}`,
    );
    const stored = await database.count('comments');
    findings.check(
      stored >= ledger.comments.size,
      `${n(stored)} comment rows < ${n(ledger.comments.size)} acknowledged`,
    );
    const failures = service.grep(/SQLITE_CORRUPT|malformed/i);
    findings.check(failures.length === 0, () => `log: ${failures[0]}`);
  } catch (err) {
    findings.fail(`${(err as Error).message} (server: ${service.describeExit()})`);
  } finally {
    await service.stop();
    await database.cleanup();
  }
  const refused = tally.count((s) => s === 503);
  // Why writes were refused: the log's warnings (database unavailable), or none (load shedding).
  const why = refused ? ` (server warnings: ${some([...new Set(warnings)], 2) || 'none'})` : '';
  return findings.verdict(
    name,
    `${kills} kills, ${n(ledger.acknowledged)} acknowledged writes, ${n(refused)} refused with 503${why}, integrity ${integrity === 'ok' ? 'ok' : 'NOT ok'}`,
  );
}

if (isMain(import.meta.url)) await runScript('kill-9', () => killNine());
