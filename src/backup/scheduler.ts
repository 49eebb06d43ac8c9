import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/schema.ts';
import type { SqliteDatabase } from '../db/sqlite-driver.ts';
import { type Clock, wakeEvery } from '../lib/clock.ts';
import { releaseLease, takeLease } from '../db/lease.ts';
import { BackupSet, writeBackup } from './files.ts';

const LEASE = 'backup';

export interface BackupSchedulerOptions {
  db: Db;
  sqlite: SqliteDatabase;
  /** The database file (DATABASE_URL without `sqlite:`): names the copies. */
  databaseFile: string;
  dir: string;
  intervalMs: number;
  keep: number;
  clock: Clock;
  log: FastifyBaseLogger;
  /** How often an instance looks whether a backup is due (and renews its lease). */
  tickMs?: number;
}

/**
 * Scheduled SQLite backups: every `intervalMs`, an online copy into the backup directory,
 * then all but the newest `keep` copies deleted. When a backup is due comes from the copies
 * already there (the newest one's time), so a restart neither skips nor repeats one. Several
 * instances on one file back up once: the one holding the `backup` lease in the database
 * (db/lease.ts, the mechanism live sync uses) does it, and another takes over within a few
 * ticks when it stops or dies.
 */
export class BackupScheduler {
  readonly holder = randomUUID();
  readonly set: BackupSet;
  #stopWaking = (): void => undefined;
  #running: Promise<string> | null = null;
  #held = false;
  readonly #tickMs: number;

  constructor(private readonly opts: BackupSchedulerOptions) {
    this.set = new BackupSet(opts.dir, opts.databaseFile);
    this.#tickMs = opts.tickMs ?? Math.min(60_000, opts.intervalMs / 4);
  }

  /**
   * Creates the directory and writes a file into it (a start fails at once when it cannot: a
   * read-only mount let the start pass and failed the first backup), then starts the ticks.
   */
  async start(): Promise<void> {
    try {
      // The copies hold every session and secret: a new directory is the service user's alone.
      await mkdir(this.opts.dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new Error(`BACKUP_DIR ${this.opts.dir} cannot be created: ${(err as Error).message}`);
    }
    const probe = join(this.opts.dir, `.write-check-${process.pid}`);
    try {
      await writeFile(probe, '', { mode: 0o600 });
      await rm(probe);
    } catch (err) {
      throw new Error(`BACKUP_DIR ${this.opts.dir} cannot be written: ${(err as Error).message}`);
    }
    this.#stopWaking = wakeEvery(this.#tickMs, () =>
      this.#tick().catch((err: unknown) => this.opts.log.error({ err }, 'scheduled backup failed')),
    );
  }

  async stop(): Promise<void> {
    this.#stopWaking();
    await this.#running?.catch(() => undefined);
    if (this.#held) await releaseLease(this.opts.db, LEASE, this.holder).catch(() => undefined);
    this.#held = false;
  }

  /** Takes the lease and backs up now; null when another instance holds the lease. */
  async runOnce(): Promise<string | null> {
    if (!(await this.#takeLease())) return null;
    return this.#backup();
  }

  async #tick(): Promise<void> {
    if (!(await this.#takeLease()) || this.#running) return;
    const newest = (await this.set.list()).at(-1);
    const now = this.opts.clock.now().getTime();
    // Half a tick early rather than a tick late: the schedule does not drift later each time.
    if (newest && now - newest.at.getTime() < this.opts.intervalMs - this.#tickMs / 2) return;
    await this.#backup();
  }

  async #takeLease(): Promise<boolean> {
    // The lease outlives three ticks: a backup of a large file may take more than one.
    const held = await takeLease(this.opts.db, LEASE, this.holder, this.opts.clock.now(), this.#tickMs * 3);
    if (held && !this.#held)
      this.opts.log.info('scheduled backups: this instance makes them (it holds the lease)');
    this.#held = held;
    return held;
  }

  #backup(): Promise<string> {
    this.#running ??= (async () => {
      const { sqlite, keep, clock, log } = this.opts;
      const started = clock.now();
      const file = this.set.fileFor(started);
      try {
        await writeBackup(sqlite, file);
        const pruned = await this.set.prune(keep, clock.now());
        log.info(
          { file, ms: clock.now().getTime() - started.getTime(), pruned: pruned.length },
          `backup written to ${file}`,
        );
        return file;
      } finally {
        this.#running = null;
      }
    })();
    return this.#running;
  }
}
