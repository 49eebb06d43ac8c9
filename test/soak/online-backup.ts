/**
 * SECURITY.md 29: `streamer-rating backup <file>` while the service writes. Each copy, moved
 * alone to another place, opens cleanly, passes `PRAGMA integrity_check` and holds every
 * comment acknowledged before the backup began; the writers meanwhile get no errors; and the
 * service starts on the last copy.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { sqliteDriver } from '../../src/db/sqlite-driver.ts';
import { createSqlite } from './lib/database.ts';
import { adminBrowser, Browser, createStreamer } from './lib/http.ts';
import { Ledger, verifyLedger } from './lib/ledger.ts';
import { postComment, servedOrShed, startWorkers, Tally } from './lib/load.ts';
import { entry, nodeArgs, ROOT, Service } from '../helpers/service.ts';
import { Findings, isMain, n, runScript, some, type Verdict } from './lib/verdict.ts';

export interface BackupOptions {
  backups: number;
  /** Writes between two backups (ms). */
  gapMs: number;
  writers: number;
  /** Writes before the first backup, so that the copy takes many steps (ms). */
  seedMs: number;
}

export const FULL: BackupOptions = { backups: 10, gapMs: 2000, writers: 4, seedMs: 30_000 };

/** `node bin/streamer-rating.js backup <file>` (the source through tsx in `npm test`). */
async function backup(databaseUrl: string, file: string) {
  const args = entry === 'dist' ? [join(ROOT, 'bin/streamer-rating.js')] : nodeArgs('cli');
  return promisify(execFile)(process.execPath, [...args, 'backup', file], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
    },
    timeout: 120_000,
  });
}

export async function onlineBackup(o: BackupOptions = FULL): Promise<Verdict> {
  const name = 'online-backup';
  const findings = new Findings();
  const database = createSqlite();
  const services: Service[] = [];
  const ledger = new Ledger();
  const tally = new Tally();
  let made = 0;
  let largest = 0;
  let bytes = 0;
  try {
    const service = await Service.start({ databaseUrl: database.url, name: 'service' });
    services.push(service);
    const admin = await adminBrowser(service.url);
    const streamers = [await createStreamer(admin, 'Backup A'), await createStreamer(admin, 'Backup B')];
    const writers = Array.from({ length: o.writers }, () => new Browser(service.url));
    const filler = 'a comment long enough to fill pages, '.repeat(25);
    const load = startWorkers(o.writers, (w, i) =>
      postComment(writers[w]!, streamers[i % 2]!, `${filler} writer ${w} comment ${i}`, ledger, tally),
    );
    await sleep(o.seedMs);
    let lastCopy = '';
    let lastBefore = new Map<number, number>();
    for (let k = 1; k <= o.backups; k++) {
      await sleep(o.gapMs);
      const acknowledged = new Map(ledger.comments);
      const before = new Set(acknowledged.keys());
      const file = join(database.dir, `backup-${k}.db`);
      try {
        await backup(database.url, file);
      } catch (err) {
        const e = err as { code?: number; stderr?: string; message: string };
        findings.fail(
          `backup ${k} failed: exit ${e.code ?? '?'}: ${(e.stderr ?? e.message).trim().slice(0, 300)}`,
        );
        continue;
      }
      // The copy alone, as an operator moves it: no -wal or -shm beside it.
      const moved = join(database.dir, `moved-${k}.db`);
      copyFileSync(file, moved);
      const copy = new (sqliteDriver())(moved, { fileMustExist: true });
      try {
        const check = (copy.pragma('integrity_check') as { integrity_check: string }[])
          .map((r) => r.integrity_check)
          .join('; ');
        findings.check(check === 'ok', `backup ${k}: integrity_check ${check.slice(0, 200)}`);
        const ids = new Set(
          (copy.prepare('select id from comments').all() as { id: number }[]).map((r) => r.id),
        );
        const absent = [...before].filter((id) => !ids.has(id));
        findings.check(
          absent.length === 0,
          `backup ${k} lacks ${absent.length} comments acknowledged before it began`,
        );
        largest = Math.max(largest, ids.size);
        bytes = Math.max(bytes, statSync(moved).size);
      } catch (err) {
        findings.fail(`backup ${k} does not open cleanly: ${(err as Error).message}`);
      } finally {
        copy.close();
      }
      made++;
      lastCopy = moved;
      lastBefore = acknowledged;
    }
    await load.stop();
    const unexpected = tally.unexpected(servedOrShed);
    findings.check(unexpected.length === 0, () => `writers during the backups got: ${some(unexpected)}`);
    findings.check(service.alive, () => `the service died: ${service.describeExit()}`);

    if (lastCopy) {
      // A restore: the service runs on the copy, and it holds what was acknowledged before it.
      const restored = await Service.start({
        databaseUrl: `sqlite:${lastCopy}`,
        name: 'service on the backup',
      });
      services.push(restored);
      const partial = new Ledger();
      for (const [id, streamer] of lastBefore) partial.comment(id, streamer);
      const { missing } = await verifyLedger(partial, restored.url);
      findings.check(missing.length === 0, () => `the service on the last backup lacks ${some(missing)}`);
    }
  } catch (err) {
    findings.crashed(err, services);
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await database.cleanup();
  }
  return findings.verdict(
    name,
    `${made} backups under write load (${n(ledger.acknowledged)} comments written), each opens alone and passes integrity_check; the largest holds ${n(largest)} comments in ${(bytes / 2 ** 20).toFixed(1)} MiB`,
  );
}

if (isMain(import.meta.url)) await runScript('online-backup', () => onlineBackup());
