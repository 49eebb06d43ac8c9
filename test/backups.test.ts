import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { linkNew, writeBackup } from '../src/backup/files.ts';
import { restoreSqlite } from '../src/backup/restore.ts';
import { BackupScheduler } from '../src/backup/scheduler.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { sqliteDriver } from '../src/db/sqlite-driver.ts';
import { startApp, TestClock } from './helpers/app.ts';
import { cli, cliAsync, database, dir } from './helpers/cli.ts';
import { dbKind, reopen } from './helpers/database.ts';

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const comments = (file: string) => {
  const db = new (sqliteDriver())(file, { readonly: true });
  try {
    return new Set((db.prepare('select id from comments').all() as { id: number }[]).map((r) => r.id));
  } finally {
    db.close();
  }
};

/** A logger that keeps the messages of info lines. */
function recordingLog(lines: string[]): FastifyBaseLogger {
  const log = {
    level: 'info',
    info: (a: unknown, b?: string) => lines.push(typeof a === 'string' ? a : (b ?? '')),
    error: () => undefined,
    warn: () => undefined,
    debug: () => undefined,
    trace: () => undefined,
    fatal: () => undefined,
    silent: () => undefined,
    child: () => log,
  };
  return log;
}

/**
 * A database holding one streamer and one comment, its backup made by the command-line tool
 * into a new directory (`prefix`) as `name`, and the service stopped: what a restore starts from.
 */
async function backupOfOneComment(streamer: string, body: string, prefix: string, name: string) {
  const d = await database();
  const a = await startApp({}, { database: d });
  await a.client().post('/api/comments', { streamer_id: await a.streamer(streamer), body });
  const file = join(mkdtempSync(join(dir, prefix)), name);
  expect(cli(d, ['backup', file]).code).toBe(0);
  await a.close();
  await d.db.destroy();
  return { d, file };
}

describe.runIf(dbKind === 'sqlite')('scheduled backups and restore (SQLite)', { timeout: 120_000 }, () => {
  it('/metrics tells when the newest complete backup was made (0 before the first), to alert on', async () => {
    const d = await database();
    const backups = mkdtempSync(join(dir, 'backups-metric-'));
    const token = 'backup-metric-test-token-0123456789';
    const a = await startApp({ BACKUP_DIR: backups, METRICS_TOKEN: token }, { database: d });
    try {
      const scraped = async () => {
        const res = await fetch(`${a.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
        return Number(/^backup_last_success_timestamp_seconds (\S+)$/m.exec(await res.text())?.[1]);
      };
      expect(await scraped()).toBe(0);
      const file = await a.app.backups!.runOnce();
      const made = (await a.app.backups!.set.list()).at(-1)!;
      expect(made.file).toBe(file);
      expect(await scraped()).toBe(made.at.getTime() / 1000);
    } finally {
      await a.close();
    }
  });

  it('backs up while comments are written, keeps BACKUP_KEEP copies, and a restore holds every comment acknowledged before its backup', async () => {
    const d = await database();
    const backups = mkdtempSync(join(dir, 'backups-'));
    const a = await startApp({ BACKUP_DIR: backups, BACKUP_KEEP: '2' }, { database: d });
    const streamer = await a.streamer('Backed Up');
    const acked: number[] = [];
    let writing = true;
    // Resolves once `n` more comments are acknowledged: each backup and the stop wait for
    // writes of their own, however fast the machine writes.
    let watch = { until: 0, reached: () => {} };
    const more = (n: number) =>
      new Promise<void>((reached) => (watch = { until: acked.length + n, reached }));
    const writers = Array.from({ length: 3 }, async (_, w) => {
      const c = a.client();
      for (let i = 0; writing; i++) {
        const r = await c.post('/api/comments', { streamer_id: streamer, body: `writer ${w} comment ${i}` });
        expect(r.status).toBe(201);
        acked.push(r.body.id as number);
        if (acked.length >= watch.until) watch.reached();
      }
    });
    const made: { file: string; before: number[] }[] = [];
    for (let k = 0; k < 3; k++) {
      await more(10);
      const before = [...acked];
      const file = await a.app.backups!.runOnce();
      expect(file).not.toBeNull();
      made.push({ file: file!, before });
    }
    await more(1);
    writing = false;
    await Promise.all(writers);
    expect(acked.length).toBeGreaterThan(made[2]!.before.length);

    // Written whole under their final names only, the oldest pruned; readable by the service's
    // user alone (a copy holds every session and secret), whatever the umask.
    expect(readdirSync(backups).sort()).toEqual(made.slice(1).map((m) => m.file.slice(backups.length + 1)));
    for (const m of made.slice(1)) expect((statSync(m.file).mode & 0o777).toString(8)).toBe('600');
    const last = made[2]!;
    const inCopy = comments(last.file);
    expect(last.before.filter((id) => !inCopy.has(id))).toEqual([]);

    // While the service holds the database, restore refuses and changes nothing.
    const target = d.url.slice('sqlite:'.length);
    const busy = cli(d, ['restore', last.file]);
    expect(busy.code, busy.err).toBe(1);
    expect(busy.err).toContain('in use by a running service');
    // It names the unit the deploy kit installs (deploy/streamer-rating@.service), all instances.
    expect(readdirSync('deploy')).toContain('streamer-rating@.service');
    expect(busy.err).toContain("systemctl stop 'streamer-rating@*'");
    expect(comments(target).size).toBe(acked.length);

    await a.close();
    await d.db.destroy();
    const restored = cli(d, ['restore', last.file]);
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toContain('kept as');
    const aside = readdirSync(dirname(target)).find((f) => f.includes('.before-restore-'));
    expect(aside).toBeDefined();
    expect(comments(join(dirname(target), aside!)).size).toBe(acked.length);

    // The service on the restored file: everything acknowledged before the backup is there.
    const again = reopen(d);
    const b = await startApp({}, { database: again });
    try {
      const list = (await b.client().get(`/api/comments?streamer_id=${streamer}`)).body as { id: number }[];
      const ids = new Set(list.map((c) => c.id));
      expect(last.before.filter((id) => !ids.has(id))).toEqual([]);
    } finally {
      await b.close();
      await again.cleanup();
    }
  });

  it('finishes while another connection writes between every step of the copy', async () => {
    // The command-line tool copies while the service writes: each write by another connection
    // starts SQLite's online backup over. With fixed 100-page steps this copy never ended.
    const d = mkdtempSync(join(dir, 'steps-'));
    const file = join(d, 'live.db');
    const writer = new (sqliteDriver())(file);
    writer.pragma('journal_mode = WAL');
    writer.exec('create table notes (id integer primary key, body text not null)');
    const insert = writer.prepare('insert into notes (body) values (?)');
    writer.transaction(() => {
      for (let i = 0; i < 20_000; i++) insert.run('x'.repeat(200));
    })();
    const reader = new (sqliteDriver())(file);
    // The writer stops by itself after 10,000 writes, one between two steps of the copy (both
    // take turns on this event loop); the copy must have finished before that: it needs a few.
    const maxWrites = 10_000;
    let writing = true;
    let writes = 0;
    const write = () => {
      if (!writing || writes >= maxWrites) return void (writing = false);
      insert.run(`written during the copy ${writes++}`);
      setImmediate(write);
    };
    setImmediate(write);
    let finishedWhileWriting: boolean;
    try {
      await writeBackup(reader, join(d, 'copy.db'));
      finishedWhileWriting = writing;
    } finally {
      writing = false;
    }
    expect(finishedWhileWriting, 'the copy ended only when the writes stopped').toBe(true);
    expect(writes).toBeGreaterThan(0);
    const copy = new (sqliteDriver())(join(d, 'copy.db'), { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const { n } = copy.prepare('select count(*) as n from notes').get() as { n: number };
      expect(n).toBeGreaterThanOrEqual(20_000);
    } finally {
      copy.close();
      reader.close();
      writer.close();
    }
  });

  it('a backup over the live database, its log or a link to it is refused, and the service keeps every write', async () => {
    const d = await database();
    const a = await startApp({}, { database: d });
    try {
      const streamerId = await a.streamer('Live');
      const file = d.url.slice('sqlite:'.length);
      const link = join(dirname(file), 'same.db');
      linkSync(file, link);
      for (const target of [file, `${dirname(file)}/./${basename(file)}`, `${file}-wal`, link]) {
        const r = cli(d, ['backup', target]);
        expect(r.code, target).toBe(1);
        expect(r.err).toMatch(/^Error: .* is the database('s -wal file)? itself; name a new file/);
      }
      expect(
        (await a.client().post('/api/comments', { streamer_id: streamerId, body: 'after' })).status,
      ).toBe(201);
      expect(comments(file).size).toBe(1);
    } finally {
      await a.close();
    }
  });

  it('a backup over an existing file is refused (exit 1, the file as it was) unless --force, which replaces it whole', async () => {
    const d = await database();
    const a = await startApp({}, { database: d });
    try {
      await a.client().post('/api/comments', { streamer_id: await a.streamer('Twice'), body: 'first' });
      const copies = mkdtempSync(join(dir, 'twice-'));
      const file = join(copies, 'by-hand.db');
      expect(cli(d, ['backup', file]).code).toBe(0);
      const first = hash(file);
      await a.client().post('/api/comments', { streamer_id: await a.streamer('Again'), body: 'second' });
      const again = cli(d, ['backup', file]);
      expect([again.code, again.err.trim()]).toEqual([
        1,
        `Error: ${file} exists; name a new file, or give --force to replace it`,
      ]);
      expect(hash(file)).toBe(first);
      expect(readdirSync(copies)).toEqual(['by-hand.db']);
      const forced = cli(d, ['backup', '--force', file]);
      expect(forced.code, forced.err).toBe(0);
      expect(comments(file).size).toBe(2);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(cli(null, ['backup', '--help']).out).toMatch(
        /^Usage: streamer-rating backup <file> \[--force\]/,
      );
    } finally {
      await a.close();
    }
  });

  it('two backups started together to one new name: one writes it, the other is refused as over an existing file', async () => {
    const d = await database();
    const a = await startApp({}, { database: d });
    try {
      await a.client().post('/api/comments', { streamer_id: await a.streamer('Together'), body: 'once' });
      const copies = mkdtempSync(join(dir, 'together-'));
      const file = join(copies, 'by-hand.db');
      const runs = await Promise.all([0, 1].map(() => cliAsync(d, ['backup', file])));
      expect(runs.map((r) => r.code).sort()).toEqual([0, 1]);
      expect(runs.find((r) => r.code === 1)!.err.trim()).toBe(
        `Error: ${file} exists; name a new file, or give --force to replace it`,
      );
      expect(readdirSync(copies)).toEqual(['by-hand.db']);
      expect(comments(file).size).toBe(1);

      // Two processes may or may not overlap; in one process the two copies always do: each
      // is past its start before either is in place (no look before the copy decides).
      const reader = new (sqliteDriver())(d.url.slice('sqlite:'.length), { readonly: true });
      const other = join(copies, 'in-process.db');
      try {
        const outcomes = await Promise.allSettled([
          writeBackup(reader, other, false),
          writeBackup(reader, other, false),
        ]);
        expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
        const refused = outcomes.find((o) => o.status === 'rejected')!;
        expect(String(refused.reason)).toBe(
          `Error: ${other} exists; name a new file, or give --force to replace it`,
        );
      } finally {
        reader.close();
      }
      // No temporary file is left behind by the one refused (reading a copy adds its -wal file).
      expect(readdirSync(copies).filter((name) => name.endsWith('.partial'))).toEqual([]);
      expect(comments(other).size).toBe(1);
    } finally {
      await a.close();
    }
  });

  it('on a file system without hard links (FAT, some shares) a backup still goes in under a new name, and is refused over a taken one', async () => {
    const copies = mkdtempSync(join(dir, 'no-links-'));
    const noLinks = () =>
      Promise.reject(Object.assign(new Error('operation not permitted'), { code: 'EPERM' }));
    const partial = join(copies, '.copy.partial');
    writeFileSync(partial, 'the copy', { mode: 0o600 });
    const file = join(copies, 'by-hand.db');
    // Renamed into place whole, not copied in under its name (a crash in a copy left a cut
    // file with a good name): the same file, and no temporary one beside it.
    const copy = statSync(partial).ino;
    await linkNew(partial, file, noLinks);
    expect(readFileSync(file, 'utf8')).toBe('the copy');
    expect(statSync(file).ino).toBe(copy);
    expect(readdirSync(copies)).toEqual(['by-hand.db']);
    writeFileSync(partial, 'another copy');
    await expect(linkNew(partial, file, noLinks)).rejects.toThrow(
      `${file} exists; name a new file, or give --force to replace it`,
    );
    expect(readFileSync(file, 'utf8')).toBe('the copy');
    // A copy that cannot be put in place gives the name back: nothing is left under it.
    const other = join(copies, 'other.db');
    await expect(linkNew(join(copies, '.gone.partial'), other, noLinks)).rejects.toThrow('ENOENT');
    expect(readdirSync(copies).sort()).toEqual(['.copy.partial', 'by-hand.db']);
  });

  it('`backup <file>` that fails to put its copy in place (the name is a directory) leaves no temporary file', async () => {
    const d = await database();
    const copies = mkdtempSync(join(dir, 'fails-'));
    const taken = join(copies, 'by-hand.db');
    mkdirSync(taken);
    const r = cli(d, ['backup', '--force', taken]);
    expect([r.code, r.err.trim()]).toEqual([
      1,
      `Error: cannot write ${taken}: it is a directory; nothing was replaced`,
    ]);
    expect(readdirSync(copies)).toEqual(['by-hand.db']);
    expect(readdirSync(taken)).toEqual([]);
  });

  it('a corrupt, foreign, half-written or newer copy is refused and nothing changes', async () => {
    const { d, file: good } = await backupOfOneComment('Kept', 'still here', 'copies-', 'good.db');
    const target = d.url.slice('sqlite:'.length);
    const before = hash(target);
    const listing = () => readdirSync(dirname(target)).sort();
    const files = listing();

    const copies = dirname(good);
    const foreign = join(copies, 'foreign.db');
    const other = new (sqliteDriver())(foreign);
    other.exec('create table notes (id integer primary key, body text)');
    other.close();
    const garbage = join(copies, 'garbage.db');
    writeFileSync(garbage, Buffer.alloc(64 * 1024, 0x5a));
    const corrupt = join(copies, 'corrupt.db');
    copyFileSync(good, corrupt);
    const bytes = readFileSync(corrupt);
    bytes.fill(0xa5, 4096 * 2, bytes.length - 4096); // every page but the first two, and the last
    writeFileSync(corrupt, bytes);
    const newer = join(copies, 'newer.db');
    copyFileSync(good, newer);
    const n = new (sqliteDriver())(newer);
    n.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('999-from-the-future', 'x');
    n.close();
    const live = join(copies, 'live.db');
    copyFileSync(good, live);
    writeFileSync(`${live}-wal`, Buffer.alloc(4096, 1));

    for (const [file, reason] of [
      [foreign, /not a streamer-rating database/],
      [garbage, /not a SQLite database|cannot be opened/],
      [corrupt, /integrity_check|not a SQLite database|malformed/],
      [newer, /newer version \(migration 999-from-the-future/],
      [live, /-wal file beside it/],
      [join(copies, 'absent.db'), /does not exist/],
    ] as const) {
      await expect(restoreSqlite(target, file, new Date()), file).rejects.toThrow(reason);
      expect(hash(target)).toBe(before);
      expect(listing()).toEqual(files);
    }
    // The command line says so and exits 1; without a file, 2 and its help.
    const r = cli(d, ['restore', corrupt]);
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(/^Error: .*corrupt\.db/);
    expect(hash(target)).toBe(before);
    expect(cli(d, ['restore']).code).toBe(2);
  });

  it("a copy that ran 007-reaching-out under its old name is this service's, not a newer one's: restored, and it starts", async () => {
    const { d, file: old } = await backupOfOneComment('Old', 'from before', 'renamed-', 'old.db');
    const copy = new (sqliteDriver())(old);
    copy
      .prepare("update kysely_migration set name = '007-reaching-out' where name = '010-reaching-out'")
      .run();
    copy.close();
    const r = cli(d, ['restore', old]);
    expect([r.code, r.err]).toEqual([0, '']);
    const again = await startApp({}, { database: reopen(d) });
    try {
      const [kept] = await again.db.selectFrom('streamers').select(['id', 'name']).execute();
      expect(kept?.name).toBe('Old');
      const list = (await again.client().get(`/api/comments?streamer_id=${kept!.id}`)).body;
      expect(list).toEqual([expect.objectContaining({ body: 'from before' })]);
    } finally {
      await again.close();
    }
  });

  it('on a timer, one instance of several makes the backups (the lease) and another takes over when it stops', async () => {
    const d = await database();
    await migrateToLatest(d.db);
    const second = reopen(d);
    const backups = mkdtempSync(join(dir, 'timer-'));
    // The ticks come on timers, but when a backup is due and how long the lease lasts (three
    // ticks) go by the clock, which moves only when the test moves it: a busy machine's pause
    // never passes the lease on.
    const clock = new TestClock();
    clock.freeze();
    const INTERVAL_MS = 250;
    const logs: [string[], string[]] = [[], []];
    const scheduler = (i: 0 | 1, db: typeof d) =>
      new BackupScheduler({
        db: db.db,
        sqlite: db.sqlite!,
        databaseFile: d.url.slice('sqlite:'.length),
        dir: backups,
        intervalMs: INTERVAL_MS,
        keep: 2,
        clock,
        log: recordingLog(logs[i]),
        tickMs: 200,
      });
    const [one, two] = [scheduler(0, d), scheduler(1, second)];
    const written = (i: 0 | 1) => logs[i].filter((l) => l.startsWith('backup written')).length;
    await one.start();
    await two.start();
    for (let k = 1; k <= 3; k++) {
      await waitFor(() => written(0) + written(1) >= k);
      if (k < 3) clock.advance(INTERVAL_MS);
    }
    expect(Math.min(written(0), written(1))).toBe(0);
    const [first, other] = written(0) > 0 ? [one, two] : [two, one];
    const otherIndex = first === one ? 1 : 0;
    expect(readdirSync(backups).filter((f) => f.endsWith('.db'))).toHaveLength(2);
    await first.stop();
    clock.advance(INTERVAL_MS);
    await waitFor(() => written(otherIndex) >= 1);
    await other.stop();
    await second.cleanup();
  });
});

describe.runIf(dbKind === 'postgres')('backups on PostgreSQL', () => {
  it('restore refuses and points to pg_restore', async () => {
    const d = await database();
    const r = cli(d, ['restore', join(dir, 'whatever.db')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('pg_restore');
  });
});

describe.runIf(dbKind === 'sqlite')('BACKUP_DIR at start', () => {
  it('a directory that cannot be created stops the start with a message naming BACKUP_DIR', async () => {
    const file = join(mkdtempSync(join(dir, 'not-a-dir-')), 'file');
    writeFileSync(file, '');
    await expect(startApp({ BACKUP_DIR: join(file, 'backups') })).rejects.toThrow(/BACKUP_DIR/);
  });

  it('a directory that cannot be written stops the start too (stop 96: a read-only mount failed the first backup)', async (ctx) => {
    // A read-only disk: a tmpfs mounted read-only, which only root may mount; elsewhere skipped.
    const ro = mkdtempSync(join(dir, 'read-only-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', ro], { stdio: 'ignore' });
    } catch {
      ctx.skip();
    }
    try {
      await expect(startApp({ BACKUP_DIR: ro })).rejects.toThrow(`BACKUP_DIR ${ro} cannot be written: EROFS`);
    } finally {
      execFileSync('umount', ['-l', ro]);
    }
  });

  it("the directories it makes, and a restore's, are the service user's alone (0700)", async () => {
    const root = mkdtempSync(join(dir, 'made-'));
    const backups = join(root, 'backups', 'nightly');
    const a = await startApp({ BACKUP_DIR: backups });
    let copy: string | null;
    try {
      expect((statSync(backups).mode & 0o777).toString(8)).toBe('700');
      expect((statSync(dirname(backups)).mode & 0o777).toString(8)).toBe('700');
      copy = await a.app.backups!.runOnce();
    } finally {
      await a.close();
    }
    const target = join(root, 'fresh', 'streamers.db');
    await restoreSqlite(target, copy!, new Date());
    expect((statSync(dirname(target)).mode & 0o777).toString(8)).toBe('700');
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
