import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startOf, temporaryFor, THIS_PLACE, THIS_WRITER } from '../src/backup/temporary.ts';
import { sqliteDriver } from '../src/db/sqlite-driver.ts';
import { startApp } from './helpers/app.ts';
import { database, dir, env, migratedDatabase, TOOL } from './helpers/cli.ts';
import { dbKind } from './helpers/database.ts';
import { smallDisk } from './helpers/full-disk.ts';
import { ROOT } from './helpers/service.ts';

/**
 * A process copying a small SQLite database to `file` as `backup <file>` does (writeWhole and
 * SQLite's online backup), held in the middle until a signal ends it: it copies one page (the
 * copy's `-journal` is then beside it), says `copying`, and copies no more (better-sqlite3
 * copies as many pages a step as the progress function returns). A whole copy is over too soon
 * to be caught in the middle. Signals are left to Node.js's default, as the command-line tool
 * leaves them.
 */
function heldCopy(file: string) {
  const folder = mkdtempSync(join(dir, 'held-copy-'));
  const source = join(folder, 'source.db');
  const db = new (sqliteDriver())(source);
  db.exec('create table pages (b blob)');
  for (let i = 0; i < 4; i++) db.prepare('insert into pages values (randomblob(8000))').run();
  db.close();
  const writer = join(folder, 'writer.mts');
  writeFileSync(
    writer,
    [
      `import { writeWhole } from ${JSON.stringify(join(ROOT, 'src/backup/files.ts'))};`,
      `import { sqliteDriver } from ${JSON.stringify(join(ROOT, 'src/db/sqlite-driver.ts'))};`,
      'const source = new (sqliteDriver())(process.argv[3]!, { readonly: true });',
      'let steps = 0;',
      "const progress = () => (++steps === 1 ? 1 : (steps === 2 && console.log('copying'), 0));",
      'await writeWhole(process.argv[2]!, (partial) => source.backup(partial, { progress }));',
    ].join('\n'),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', writer, file, source], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ended = new Promise((done) => child.once('exit', (code, by) => done({ code, by })));
  // Copying, or ended before it (then the checks after it say so at once, not at the time limit).
  const copying = Promise.race([new Promise((said) => child.stdout.once('data', said)), ended]);
  return { child, copying, ended };
}

/** A process's state (field 3 of /proc/<pid>/stat: `S` asleep, `Z` a zombie, ...). */
const stateOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
};

/**
 * A zombie of this host: a process that has ended and that its parent, `sleep` (which never
 * waits for a child), has not reaped; and that parent, running. The child ends only once its
 * parent is `sleep` (bash, before its exec, would reap it). `end` ends both.
 */
async function zombie() {
  const script =
    '(until read -r c < /proc/$$/comm && [ "$c" = sleep ]; do :; done) & echo $!; exec sleep 120';
  const parent = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = Number(String(await new Promise((said) => parent.stdout.once('data', said))));
  const end = () => parent.kill('SIGKILL');
  try {
    // Its ending is an outside event: waited for with a generous bound, never a set time.
    await expect.poll(() => stateOf(pid), { timeout: 10_000, interval: 10 }).toBe('Z');
  } catch (err) {
    end();
    throw err;
  }
  return { pid, parent: parent.pid!, end };
}

/** The temporary files of a directory and SQLite's files beside them. */
const temporaries = (folder: string) => readdirSync(folder).filter((name) => name.includes('.partial'));

describe.runIf(dbKind === 'sqlite')('the temporary files of backups', { timeout: 120_000 }, () => {
  it("a scheduled backup removes a dead backup's temporary file and never lists one as a copy", async () => {
    const d = await database();
    const backups = mkdtempSync(join(dir, 'backups-leftover-'));
    const a = await startApp({ BACKUP_DIR: backups }, { database: d });
    try {
      const set = a.app.backups!.set;
      // A backup that died an hour and more ago (a crash, a full disk), and one still being
      // written, whose journal was made as it began, more than an hour ago: with its
      // temporary file changed a second ago, both are kept.
      const at = (ms: number) => new Date(a.clock.now().getTime() - ms);
      const dead = join(backups, `.${basename(set.fileFor(at(7_200_000)))}.0badc0de.partial`);
      const writing = join(backups, `.${basename(set.fileFor(at(1000)))}.5eed5eed.partial`);
      for (const [file, ms] of [
        [dead, 7_200_000],
        [`${dead}-journal`, 7_200_000],
        [writing, 1000],
        [`${writing}-journal`, 7_200_000],
      ] as const) {
        writeFileSync(file, 'part of a copy');
        utimesSync(file, at(ms), at(ms));
      }
      expect(await set.list()).toEqual([]);
      const file = await a.app.backups!.runOnce();
      expect((await set.list()).map((c) => c.file)).toEqual([file]);
      expect(readdirSync(backups).sort()).toEqual(
        [basename(writing), `${basename(writing)}-journal`, basename(file!)].sort(),
      );
    } finally {
      await a.close();
    }
  });

  it("a temporary file whose writer on this host has ended, or whose writer's number a later process has taken, is removed at the next backup at once; a running writer's, another host's and an unnamed writer's wait for the hour", async () => {
    const d = await database();
    const backups = mkdtempSync(join(dir, 'backups-writers-'));
    const a = await startApp({ BACKUP_DIR: backups }, { database: d });
    try {
      const set = a.app.backups!.set;
      const minuteAgo = new Date(a.clock.now().getTime() - 60_000);
      const copy = set.fileFor(minuteAgo);
      // This process's start, as Linux tells it: what tells a number given again from its writer.
      expect(THIS_WRITER.started).toMatch(/^\d+$/);
      // A process of this host that has ended (numbers are not given again so soon).
      const ended = spawnSync('true').pid;
      const dead = temporaryFor(copy, { pid: ended, started: '4242', place: THIS_PLACE });
      const deadBefore = temporaryFor(copy, { pid: ended, started: undefined, place: THIS_PLACE });
      // This process's number, with another start: a writer that ended, its number taken since.
      const reused = temporaryFor(copy, { ...THIS_WRITER, started: `${THIS_WRITER.started}0` });
      const running = temporaryFor(copy); // this process's: a backup still being written
      // A name of before, without the start: whose number runs cannot be told from its writer.
      const runningBefore = temporaryFor(copy, { ...THIS_WRITER, started: undefined });
      const elsewhere = temporaryFor(copy, { pid: ended, started: '4242', place: 'other-host' });
      const unnamed = join(backups, `.${basename(copy)}.0badc0de.partial`); // the names of before
      const made = [dead, deadBefore, reused, running, runningBefore, elsewhere, unnamed];
      for (const file of made) {
        writeFileSync(file, 'part of a copy');
        utimesSync(file, minuteAgo, minuteAgo);
      }
      expect(basename(running)).toMatch(`.${process.pid}-${THIS_WRITER.started}@${THIS_PLACE}.partial`);
      const file = await a.app.backups!.runOnce();
      expect(readdirSync(backups).sort()).toEqual(
        [running, runningBefore, elsewhere, unnamed, file!].map((f) => basename(f)).sort(),
      );
    } finally {
      await a.close();
    }
  });

  it("a zombie writer's temporary file (ended, not yet reaped by its parent) is removed at the next backup at once; its living parent's waits", async () => {
    const d = await database();
    const backups = mkdtempSync(join(dir, 'backups-zombie-'));
    const a = await startApp({ BACKUP_DIR: backups }, { database: d });
    const z = await zombie();
    try {
      const minuteAgo = new Date(a.clock.now().getTime() - 60_000);
      const copy = a.app.backups!.set.fileFor(minuteAgo);
      // The zombie still answers a signal 0 and keeps its start: only its state tells it ended.
      expect(() => process.kill(z.pid, 0)).not.toThrow();
      const dead = temporaryFor(copy, { pid: z.pid, started: startOf(z.pid), place: THIS_PLACE });
      const living = temporaryFor(copy, { pid: z.parent, started: startOf(z.parent), place: THIS_PLACE });
      for (const file of [dead, living]) {
        writeFileSync(file, 'part of a copy');
        utimesSync(file, minuteAgo, minuteAgo);
      }
      expect(basename(dead)).toMatch(/\.\d+-\d+@/);
      const file = await a.app.backups!.runOnce();
      expect(stateOf(z.pid)).toBe('Z');
      expect(readdirSync(backups).sort()).toEqual([living, file!].map((f) => basename(f)).sort());
    } finally {
      z.end();
      await a.close();
    }
  });

  it("a backup killed in the middle of its copy leaves the copy's -journal beside its temporary file; the next scheduled backup removes both, and another host's pair waits", async () => {
    const d = await database();
    const backups = mkdtempSync(join(dir, 'backups-killed-'));
    const a = await startApp({ BACKUP_DIR: backups }, { database: d });
    try {
      const set = a.app.backups!.set;
      const minuteAgo = new Date(a.clock.now().getTime() - 60_000);
      const copy = set.fileFor(minuteAgo);
      const elsewhere = temporaryFor(copy, { ...THIS_WRITER, place: 'other-host' });
      for (const file of [elsewhere, `${elsewhere}-journal`]) {
        writeFileSync(file, 'part of a copy');
        utimesSync(file, minuteAgo, minuteAgo);
      }
      const { child, copying, ended } = heldCopy(copy);
      await copying;
      const [killed] = temporaries(backups).filter((name) => !name.startsWith(basename(elsewhere)));
      expect(temporaries(backups).sort()).toEqual(
        [basename(elsewhere), `${basename(elsewhere)}-journal`, killed, `${killed}-journal`].sort(),
      );
      child.kill('SIGKILL');
      expect(await ended).toEqual({ code: null, by: 'SIGKILL' });
      expect(temporaries(backups)).toContain(`${killed}-journal`);
      const file = await a.app.backups!.runOnce();
      expect(readdirSync(backups).sort()).toEqual(
        [basename(elsewhere), `${basename(elsewhere)}-journal`, basename(file!)].sort(),
      );
    } finally {
      await a.close();
    }
  });

  it("`backup <file>` that runs out of room in its copy leaves neither its temporary file nor the copy's -journal", async () => {
    const d = await migratedDatabase();
    // A database of 24 MB: in trials, failed copies of 20 MB and more left their -journal,
    // one of 12 MB none (SQLite's rollback removed it).
    const db = new (sqliteDriver())(d.url.slice('sqlite:'.length));
    db.exec('create table filler (b blob)');
    db.exec(
      'with recursive n(i) as (select 1 union all select i + 1 from n where i < 6000) ' +
        'insert into filler select randomblob(4000) from n',
    );
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const copies = mkdtempSync(join(dir, 'no-room-'));
    const file = join(copies, 'by-hand.db');
    // A file size limit (ulimit -f, KiB) stands for a full disk or a quota: SQLite fails the
    // copy past 64 KiB, and its rollback of the copy's own transaction leaves the -journal.
    const r = spawnSync(
      'bash',
      ['-c', 'ulimit -f 64 && exec "$0" "$@"', process.execPath, ...TOOL, 'backup', file],
      {
        env: { ...env(d), TSX_DISABLE_CACHE: '1' },
        encoding: 'utf8',
      },
    );
    expect([r.status, r.stderr]).toEqual([
      1,
      expect.stringMatching(/^Error: cannot write .*; nothing was replaced\n$/),
    ]);
    expect(readdirSync(copies)).toEqual([]);
  });

  // A real full disk (a 256 KiB tmpfs) where the suite may mount one: SQLite's backup meets
  // ENOSPC, says SQLITE_FULL, and the operator is told it is room, not a failing disk.
  it('`backup <file>` onto a full disk says there is no room, leaves nothing there, and the database is as it was', async (ctx) => {
    const disk = smallDisk(256);
    if (!disk) return ctx.skip('this process may not mount a small file system (root with CAP_SYS_ADMIN)');
    try {
      const d = await migratedDatabase();
      const db = new (sqliteDriver())(d.url.slice('sqlite:'.length));
      db.exec('create table filler (b blob)');
      db.exec(
        'with recursive n(i) as (select 1 union all select i + 1 from n where i < 300) ' +
          'insert into filler select randomblob(4000) from n',
      );
      db.pragma('wal_checkpoint(TRUNCATE)');
      const file = join(disk.dir, 'by-hand.db');
      const r = spawnSync(process.execPath, [...TOOL, 'backup', file], {
        env: { ...env(d), TSX_DISABLE_CACHE: '1' },
        encoding: 'utf8',
      });
      expect([r.status, r.stderr]).toEqual([
        1,
        `Error: cannot write ${file}: no room left on its disk (or over its size limit); nothing was replaced\n`,
      ]);
      expect(readdirSync(disk.dir)).toEqual([]);
      expect(db.prepare('select count(*) as n from filler').get()).toEqual({ n: 300 });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    } finally {
      disk.unmount();
    }
  });

  it.each(['SIGINT', 'SIGTERM'] as const)(
    '`backup <file>` stopped by %s while it copies removes its temporary file and its -journal, and ends by that signal',
    async (signal) => {
      const copies = mkdtempSync(join(dir, 'stopped-'));
      const file = join(copies, 'by-hand.db');
      const { child, copying, ended } = heldCopy(file);
      await copying;
      const [partial] = temporaries(copies);
      expect(temporaries(copies).sort()).toEqual([partial, `${partial}-journal`]);
      child.kill(signal);
      expect(await ended).toEqual({ code: null, by: signal });
      expect(readdirSync(copies)).toEqual([]);
    },
  );
});
