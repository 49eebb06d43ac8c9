/**
 * What one instance tells the others that share its database, and hears from them: that the
 * sessions changed (announceSessionChange), and every content change they commit
 * (watchChanges), which moves this instance's content version (changes.ts).
 */
import { sql } from 'kysely';
import type pg from 'pg';
import type { Clock } from '../lib/clock.ts';
import { CONTENT_CHANNEL, CONTENT_ONLY, payloadOf } from './changes.ts';
import type { DbContext } from './context.ts';
import { pgDriver } from './pg-driver.ts';

const SESSIONS = 'sessions';

/**
 * After a session write: this instance's session cache forgets at once; other instances on
 * PostgreSQL through NOTIFY, on SQLite through data_version (which any commit moves).
 */
export async function announceSessionChange(ctx: DbContext): Promise<void> {
  ctx.changes.bumpSessions();
  if (ctx.kind === 'postgres')
    await sql`select pg_notify(${CONTENT_CHANNEL}, ${payloadOf(ctx.changes, SESSIONS)})`.execute(ctx.db);
}

/** Where the watcher says what happens to its connection (the app's logger). */
export interface WatcherLog {
  warn(obj: { err: unknown }, msg: string): void;
  info(obj: { failures: number }, msg: string): void;
  debug(obj: { err: unknown }, msg: string): void;
}

export interface Watcher {
  /** Settles when the first attempt to listen has (LISTEN in place, or retrying). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Follows other instances' changes. `connectionString` is the PostgreSQL one (null for
 * SQLite, where `sqlite` is the open handle). A lost LISTEN connection is re-opened with a
 * growing pause on the app's clock, and the version moves when it comes back (changes may have
 * been missed).
 */
export function watchChanges(
  ctx: DbContext,
  connectionString: string | null,
  log: WatcherLog,
  clock: Clock,
): Watcher {
  const version = ctx.changes;
  if (ctx.sqlite) {
    const handle = ctx.sqlite;
    let seen = handle.pragma('data_version', { simple: true });
    const timer = setInterval(() => {
      // A handle closed without stop() (a test's database, a failed start) ends the polling.
      if (!handle.open) return clearInterval(timer);
      const now = handle.pragma('data_version', { simple: true });
      if (now !== seen) version.bump();
      seen = now;
    }, 500);
    timer.unref();
    return { ready: Promise.resolve(), stop: async () => clearInterval(timer) };
  }
  if (!connectionString) return { ready: Promise.resolve(), stop: async () => undefined };

  let client: pg.Client | null = null;
  let stopped = false;
  let delay = 500;
  // Whether the connection was lost (said then), and the connects that failed since.
  let lost = false;
  let failures = 0;
  const connect = async () => {
    if (stopped) return;
    const c: pg.Client = new (pgDriver().Client)({
      connectionString,
      application_name: 'streamer-rating-listen',
    });
    c.on('error', (err) => {
      log.warn({ err }, 'change listener lost its connection; reconnecting');
      lost = true;
      void c.end().catch(() => undefined);
      if (client === c) client = null;
      retry();
    });
    c.on('notification', (n) => {
      const [origin, what] = (n.payload ?? '').split(' ');
      version.heardFrom = origin ?? '';
      if (origin === version.origin) return;
      if (what === SESSIONS) version.bumpSessions();
      else if (what === CONTENT_ONLY) version.bumpContent();
      else version.bump();
    });
    try {
      await c.connect();
      await c.query(`listen ${CONTENT_CHANNEL}`);
      client = c;
      delay = 500;
      if (lost || failures > 0)
        log.info({ failures }, `change listener listens again after ${failures} failed tries`);
      lost = false;
      failures = 0;
      version.bump();
    } catch (err) {
      // Said once an outage, as the other timers' retries are (lib/outage-log.ts), and its end
      // once: a retry every 10 s for an hour's outage was 360 lines, with no line at its end.
      if (failures++ === 0 && !lost)
        log.warn({ err }, 'change listener cannot connect; retrying, said again when it listens');
      else log.debug({ err }, 'change listener cannot connect again');
      void c.end().catch(() => undefined);
      retry();
    }
  };
  // One pause at a time; a stop cuts it short.
  const pausing = new AbortController();
  let waiting = false;
  const retry = () => {
    if (stopped || waiting) return;
    waiting = true;
    const pause = delay;
    delay = Math.min(delay * 2, 10_000);
    clock.sleep(pause, pausing.signal).then(
      () => {
        waiting = false;
        void connect();
      },
      () => undefined,
    );
  };
  return {
    ready: connect(),
    stop: async () => {
      stopped = true;
      pausing.abort();
      await client?.end().catch(() => undefined);
    },
  };
}
