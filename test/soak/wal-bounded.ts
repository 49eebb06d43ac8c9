/**
 * SECURITY.md 28: in a long run of writes with readers (a second instance serving reads, and
 * outside read transactions on the file, as reports or backups make), the SQLite WAL file
 * stays bounded: checkpoints keep up.
 */
import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { sqliteDriver } from '../../src/db/sqlite-driver.ts';
import { createSqlite } from './lib/database.ts';
import { adminBrowser, Browser, createStreamer } from './lib/http.ts';
import { Ledger } from './lib/ledger.ts';
import { postComment, servedOrShed, startWorkers, Tally } from './lib/load.ts';
import { Service } from '../helpers/service.ts';
import { Findings, isMain, n, runScript, some, type Verdict } from './lib/verdict.ts';

export interface WalOptions {
  seconds: number;
  /** The WAL file may never be larger (MiB). */
  limitMiB: number;
  writers: number;
  /** Outside read transactions open at once, each held 50-250 ms. */
  readers: number;
}

export const FULL: WalOptions = { seconds: 120, limitMiB: 16, writers: 4, readers: 2 };

const MiB = 1024 * 1024;

/** An outside reader: repeated read transactions on the file, each held for a moment. */
async function readLoop(file: string, stop: () => boolean): Promise<number> {
  const db = new (sqliteDriver())(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  let reads = 0;
  try {
    while (!stop()) {
      db.exec('BEGIN');
      db.prepare('select count(*) from comments').get();
      await sleep(50 + Math.random() * 200);
      db.exec('COMMIT');
      reads++;
      await sleep(Math.random() * 50);
    }
  } finally {
    db.close();
  }
  return reads;
}

export async function walBounded(o: WalOptions = FULL): Promise<Verdict> {
  const name = 'wal-bounded';
  const findings = new Findings();
  const database = createSqlite();
  const services: Service[] = [];
  const ledger = new Ledger();
  const tally = new Tally();
  let maxWal = 0;
  let reads = 0;
  try {
    services.push(await Service.start({ databaseUrl: database.url, name: 'writer instance' }));
    services.push(await Service.start({ databaseUrl: database.url, name: 'reader instance' }));
    const [writer, reader] = services as [Service, Service];
    const admin = await adminBrowser(writer.url);
    const streamers = [await createStreamer(admin, 'Wal A'), await createStreamer(admin, 'Wal B')];
    const body = `${'a comment long enough to fill pages '.repeat(20)}`;
    const writers = Array.from({ length: o.writers }, () => new Browser(writer.url));
    const readers = [new Browser(reader.url), new Browser(reader.url)];
    const load = startWorkers(o.writers + readers.length, (w, i) => {
      if (w < o.writers)
        return postComment(writers[w]!, streamers[i % 2]!, `${body} ${w}-${i}`, ledger, tally);
      const path = i % 2 ? '/api/streamers' : `/api/comments?streamer_id=${streamers[i % 2]}&limit=50`;
      return readers[w - o.writers]!.get(path).then((a) => tally.record(`GET ${path.split('?')[0]}`, a));
    });
    let stopped = false;
    const outside = Promise.all(
      Array.from({ length: o.readers }, () => readLoop(database.file, () => stopped)),
    );
    const end = Date.now() + o.seconds * 1000;
    while (Date.now() < end) {
      await sleep(250);
      try {
        maxWal = Math.max(maxWal, statSync(`${database.file}-wal`).size);
      } catch {
        // no WAL file at this moment
      }
    }
    stopped = true;
    await load.stop();
    reads = (await outside).reduce((a, b) => a + b, 0);

    findings.check(
      maxWal <= o.limitMiB * MiB,
      `the WAL reached ${(maxWal / MiB).toFixed(1)} MiB (limit ${o.limitMiB} MiB)`,
    );
    findings.check(ledger.acknowledged >= 50, `only ${ledger.acknowledged} comments were acknowledged`);
    const unexpected = tally.unexpected(servedOrShed);
    findings.check(unexpected.length === 0, () => `unexpected answers: ${some(unexpected)}`);
    for (const s of services) findings.check(s.alive, () => `${s.name} died: ${s.describeExit()}`);
  } catch (err) {
    findings.crashed(err, services);
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await database.cleanup();
  }
  return findings.verdict(
    name,
    `${o.seconds} s, ${n(ledger.acknowledged)} comments written, ${n(tally.count((s) => s === 200))} reads through a second instance, ${n(reads)} outside read transactions, largest WAL ${(maxWal / MiB).toFixed(1)} MiB`,
  );
}

if (isMain(import.meta.url)) await runScript('wal-bounded', () => walBounded());
