import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import { pgDriver } from './connect.ts';
import type { DbContext } from './context.ts';

/**
 * The content version of a database: a number that changes whenever anything the public
 * answers show may have changed. Answers rendered once and kept (the streamer list, the
 * comments) are labelled with the version they were rendered at and thrown away when it
 * moves. Every content write goes through writeTransaction, which moves it:
 *
 * - in this process at once, after the commit (a reader never labels old data as new);
 * - in other processes on the same PostgreSQL through NOTIFY, sent inside the transaction
 *   so that it is delivered exactly when the commit is (LISTEN in watchChanges);
 * - in other processes on the same SQLite file through `PRAGMA data_version`, which moves
 *   when another connection commits (polled twice a second).
 */
export class ContentVersion {
  current = 1;
  /**
   * Who sends this process's NOTIFYs: its own come back on its LISTEN connection after it has
   * already moved at the commit, and are dropped there (a second move would throw away answers
   * rendered after the commit, and wake the event log's reader for nothing).
   */
  readonly origin = randomBytes(6).toString('base64url');
  /** The sender of the last NOTIFY heard (one LISTEN connection hears them in commit order). */
  heardFrom = '';
  /** Moves with every content change and every session write (sessions/store.ts's cache). */
  sessions = 1;
  readonly #onBump = new Set<() => void>();
  bump(): void {
    this.sessions++;
    this.bumpContent();
  }
  /**
   * A content change that no session row, its user or the password's generation shows (a
   * group of new comments, comments/batch.ts): the session cache stays, so signed-in writers
   * are not each read again from the database after every post.
   */
  bumpContent(): void {
    this.current++;
    for (const f of this.#onBump) f();
  }
  /** Called after every move of the version (the answer cache, the event log's tail); answers the stop. */
  onBump(f: () => void): () => void {
    this.#onBump.add(f);
    return () => void this.#onBump.delete(f);
  }
  bumpSessions(): void {
    this.sessions++;
  }
  /** After a write committed: moves what it changed. */
  moved(changes: WriteChanges): void {
    if (changes === 'content') this.bumpContent();
    else if (changes === 'all') this.bump();
  }
}

/** The NOTIFY channel of content changes (PostgreSQL). */
export const CONTENT_CHANNEL = 'streamer_rating_content';
/** Its payload for a change of content only (ContentVersion.bumpContent). */
export const CONTENT_ONLY = 'content';

/**
 * What a write changes: `content` when no session row, its user or the password's generation
 * can change (a new comment and its notifications), so the session cache stays
 * (`ContentVersion.bumpContent`); `none` for bookkeeping no answer shows and that publishes no
 * event (a deliverer's cursor and outbox rows): no version moves, no instance is told; `all`
 * otherwise.
 */
export type WriteChanges = 'all' | 'content' | 'none';

/** What a group of writes changed: the most any of them did. */
export const mostOf = (changes: readonly WriteChanges[]): WriteChanges =>
  changes.includes('all') ? 'all' : changes.includes('content') ? 'content' : 'none';

/** A NOTIFY's payload: who sent it, and what changed ('' for everything). */
const payloadOf = (version: ContentVersion, what: string) => `${version.origin} ${what}`;

/**
 * PostgreSQL's statement that tells other instances, on commit, that content changed: its values
 * as literals (an id of base64url letters and a word), so that a group commit sends it in one
 * round trip with the COMMIT (db/transaction.ts).
 */
export function notifyStatement(version: ContentVersion, changes: WriteChanges = 'all'): string {
  const payload = payloadOf(version, changes === 'content' ? CONTENT_ONLY : '');
  return `select pg_notify('${CONTENT_CHANNEL}', '${payload.replaceAll("'", "''")}')`;
}

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

export interface Watcher {
  /** Settles when the first attempt to listen has (LISTEN in place, or retrying). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Follows other instances' changes. `connectionString` is the PostgreSQL one (null for
 * SQLite, where `sqlite` is the open handle). A lost LISTEN connection is re-opened with a
 * growing pause, and the version moves when it comes back (changes may have been missed).
 */
export function watchChanges(
  ctx: DbContext,
  connectionString: string | null,
  warn: (err: unknown, message: string) => void,
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
  const connect = async () => {
    if (stopped) return;
    const c: pg.Client = new (pgDriver().Client)({
      connectionString,
      application_name: 'streamer-rating-listen',
    });
    c.on('error', (err) => {
      warn(err, 'change listener lost its connection; reconnecting');
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
      version.bump();
    } catch (err) {
      warn(err, 'change listener cannot connect; retrying');
      void c.end().catch(() => undefined);
      retry();
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 10_000);
  };
  return {
    ready: connect(),
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
