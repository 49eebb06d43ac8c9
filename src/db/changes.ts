import { randomBytes } from 'node:crypto';

/**
 * The content version of a database: a number that changes whenever anything the public
 * answers show may have changed. Answers rendered once and kept (the streamer list, the
 * comments) are labelled with the version they were rendered at and thrown away when it
 * moves. Every content write goes through writeTransaction, which moves it:
 *
 * - in this process at once, after the commit (a reader never labels old data as new);
 * - in other processes on the same PostgreSQL through NOTIFY, sent inside the transaction
 *   so that it is delivered exactly when the commit is (LISTEN in other-instances.ts `watchChanges`);
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
   * group of new comments, comments/post.ts): the session cache stays, so signed-in writers
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
export const payloadOf = (version: ContentVersion, what: string) => `${version.origin} ${what}`;

/**
 * PostgreSQL's statement that tells other instances, on commit, that content changed: its values
 * as literals (an id of base64url letters and a word), so that a group commit sends it in one
 * round trip with the COMMIT (db/group-commit.ts).
 */
export function notifyStatement(version: ContentVersion, changes: WriteChanges = 'all'): string {
  const payload = payloadOf(version, changes === 'content' ? CONTENT_ONLY : '');
  return `select pg_notify('${CONTENT_CHANNEL}', '${payload.replaceAll("'", "''")}')`;
}
