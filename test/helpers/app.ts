import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { type Config, parseConfig } from '../../src/config/config.ts';
import { migrateToLatest } from '../../src/db/migrator.ts';
import type { ConnectionPolicy } from '../../src/http/connections.ts';
import type { Db } from '../../src/db/schema.ts';
import type { Clock } from '../../src/lib/clock.ts';
import type { Descriptors, LoopDelaySource } from '../../src/plugins/load-shedding.ts';
import type { SessionData } from '../../src/sessions/session.ts';
import { type ProviderProfile, setBanned, setModerator, upsertUser } from '../../src/users/queries.ts';
import { freePort } from '../soak/lib/net.ts';
import { Client } from './client.ts';
import { registerDocument, unregisterDocument } from './contract-live.ts';
import { createMigratedDatabase, type TestDatabase } from './database.ts';

export const ADMIN_PASSWORD = 'correct horse battery staple';
export const SESSION_SECRET = 'test-session-secret-0123456789abcdef';

/**
 * A clock that tests move forward. It runs with the real time, offset by what advance() added,
 * until freeze() stops it: then only advance() moves it, so a rule about how much time passed
 * holds however slow the machine is. Its sleeps take no real time: they end at once, or, while
 * `holdSleeps` is set, when advance() has moved the clock by their length.
 */
/** The periods of a repeating timer that one advance() catches up on at most. */
const CATCH_UP = 1000;

export class TestClock implements Clock {
  offset = 0;
  /** Every sleep asked of this clock, in milliseconds, in order. */
  readonly sleeps: number[] = [];
  holdSleeps = false;
  private frozenAt: number | null = null;
  private held: { until: number; end: () => void }[] = [];
  private sleepWatchers: ((ms: number) => void)[] = [];

  now(): Date {
    return new Date((this.frozenAt ?? Date.now()) + this.offset);
  }
  /** Stops the clock where it is: from now on only advance() moves it. */
  freeze(): void {
    this.frozenAt ??= Date.now();
  }
  private timers = new Set<{ next: number; ms: number; fn: () => void }>();
  /**
   * Repeats on this clock's time: each advance() calls `fn` once for every period it passed, up
   * to CATCH_UP of them; a longer jump (a year, for a Monday's digest) is a machine that slept,
   * whose timer fires for the last periods only. Calling a one-second timer for each second of
   * a year took 17 s of a test.
   */
  every(ms: number, fn: () => void): () => void {
    const timer = { next: this.offset + ms, ms, fn };
    this.timers.add(timer);
    return () => void this.timers.delete(timer);
  }
  advance(ms: number): void {
    this.offset += ms;
    for (const timer of [...this.timers]) {
      const passed = Math.floor((this.offset - timer.next) / timer.ms) + 1;
      if (passed > CATCH_UP) timer.next += (passed - CATCH_UP) * timer.ms;
      while (this.timers.has(timer) && timer.next <= this.offset) {
        timer.next += timer.ms;
        timer.fn();
      }
    }
    const due = this.held.filter((s) => s.until <= this.offset);
    this.held = this.held.filter((s) => s.until > this.offset);
    for (const s of due) s.end();
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    for (const watch of this.sleepWatchers.splice(0)) watch(ms);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (!this.holdSleeps) return Promise.resolve();
    return new Promise((end, fail) => {
      const sleep = { until: this.offset + ms, end };
      this.held.push(sleep);
      signal?.addEventListener('abort', () => {
        this.held = this.held.filter((s) => s !== sleep);
        fail(signal.reason as Error);
      });
    });
  }
  /** Resolves with the length of the next sleep asked of this clock. */
  nextSleep(): Promise<number> {
    return new Promise((resolve) => this.sleepWatchers.push(resolve));
  }
}

/** The event loop's delay as load shedding reads it, one sample at a time, set by the test. */
export class TestLoopDelay {
  private readonly reports = new Set<(delayMs: number) => void>();
  /** Whether load shedding has the sampling running (a request wakes it, quiet puts it to sleep). */
  awake = false;
  readonly source: LoopDelaySource = (report) => {
    this.reports.add(report);
    return {
      wake: () => void (this.awake = true),
      sleep: () => void (this.awake = false),
      stop: () => {
        this.awake = false;
        this.reports.delete(report);
      },
    };
  };
  /** One sample of the loop with this delay. */
  sample(delayMs: number): void {
    for (const report of this.reports) report(delayMs);
  }
}

export { freePort };

export interface TestApp {
  url: string;
  app: FastifyInstance;
  db: Db;
  database: TestDatabase;
  config: Config;
  clock: TestClock;
  /** The event loop's delay as the app's load shedding reads it. */
  loopDelay: TestLoopDelay;
  /** What the app's count of open file descriptors finds (null: /proc says nothing). */
  descriptors: { now: Descriptors | null };
  /** Every log line the app wrote. */
  logs: string[];
  client(headers?: Record<string, string>): Client;
  /** A client logged in as administrator through the API: a password login of its own. */
  admin(): Promise<Client>;
  /**
   * The administrator client the test's lookups and set-up share (streamer() uses it): one
   * password login (an argon2id check) for the app, not one per call. For reads and writes
   * whose session is not what the test is about; admin() for one of the test's own.
   */
  sharedAdmin(): Promise<Client>;
  /** Creates (or updates) a user through the data layer. */
  user(profile?: Partial<ProviderProfile>, opts?: { mod?: boolean; banned?: boolean }): Promise<TestUser>;
  /** A client whose session holds this user, as after a provider sign-in. */
  signedIn(user: TestUser, extra?: SessionData): Promise<Client>;
  /** Creates a streamer through the API as administrator; returns its id. */
  streamer(name?: string, rating?: Record<string, number>): Promise<number>;
  close(): Promise<void>;
}

export interface TestUser {
  id: number;
  provider: string;
  login: string;
  display_name: string;
  avatar: string;
}

let counter = 0;

/**
 * Starts the real app on a real database (SQLite, or PostgreSQL under TEST_DB=postgres),
 * listening on 127.0.0.1, and closes it after the file's tests.
 */
export async function startApp(
  env: Record<string, string> = {},
  opts: { database?: TestDatabase; logLevel?: string; connections?: Partial<ConnectionPolicy> } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await createMigratedDatabase());
  // A database of the test's own may need them; a migrated one finds nothing to do.
  await migrateToLatest(database.db);
  const port = await freePort();
  const config = parseConfig({
    PORT: String(port),
    DATABASE_URL: database.url,
    ADMIN_PASSWORD,
    SESSION_SECRET,
    RATE_LIMIT: 'off',
    LOG_LEVEL: opts.logLevel ?? 'info',
    // Live sync only where a test asks for it, and then against fakes (test/helpers/fake-live.ts).
    LIVE_SYNC_SECONDS: '0',
    ...env,
  });
  const clock = new TestClock();
  // Client and server share this process, whose event loop is busy by design: load shedding
  // reads the delay the test sets (the real loop's is checked by the soak's load-shedding run).
  const loopDelay = new TestLoopDelay();
  const descriptors: { now: Descriptors | null } = { now: { open: 50, limit: 1024 } };
  const logs: string[] = [];
  const app = await buildApp({
    config,
    database,
    clock,
    loopDelay: loopDelay.source,
    descriptors: () => descriptors.now,
    logger: { level: config.logLevel, stream: { write: (line: string) => void logs.push(line) } },
    ...(opts.connections ? { connections: opts.connections } : {}),
  });
  await app.listen({ host: '127.0.0.1', port });
  const url = `http://127.0.0.1:${port}`;
  registerDocument(url, () => app.swagger());
  let adminClient: Promise<Client> | undefined;

  const t: TestApp = {
    url,
    app,
    db: database.db,
    database,
    config,
    clock,
    loopDelay,
    descriptors,
    logs,
    client: (headers) => new Client(url, headers),
    admin: async () => {
      const c = new Client(url);
      const res = await c.post('/api/auth/login', { password: ADMIN_PASSWORD });
      if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${res.text}`);
      return c;
    },
    sharedAdmin: () => (adminClient ??= t.admin()),
    user: async (profile = {}, flags = {}) => {
      const n = ++counter;
      const user = await upsertUser(
        database.db,
        {
          provider: 'provider_a',
          provider_id: `pid-${n}-${randomBytes(3).toString('hex')}`,
          login: `user${n}`,
          display_name: `User ${n}`,
          avatar: '',
          ...profile,
        },
        clock.now().toISOString(),
      );
      if (flags.mod) await setModerator(database.db, user.id, true);
      if (flags.banned) await setBanned(database.db, user.id, true, clock.now());
      return user;
    },
    signedIn: async (user, extra = {}) => {
      const cookie = randomBytes(32).toString('base64url');
      const now = clock.now().toISOString();
      await database.db
        .insertInto('sessions')
        .values({
          id: createHmac('sha256', SESSION_SECRET).update(cookie).digest('hex'),
          data: JSON.stringify({ oauth_user: user, ...extra }),
          user_id: user.id,
          created_at: now,
          seen_at: now,
        })
        .execute();
      const c = new Client(url);
      c.cookies.set('sid', cookie);
      return c;
    },
    streamer: async (name, rating) => {
      const admin = await t.sharedAdmin();
      const res = await admin.post('/api/streamers?admin=1', {
        name: name ?? `Streamer ${++counter}`,
      });
      if (res.status !== 201) throw new Error(`streamer create failed: ${res.status} ${res.text}`);
      if (rating) {
        const put = await admin.put(`/api/streamers?id=${res.body.id}`, { r: rating });
        if (put.status !== 200) throw new Error(`rating failed: ${put.status} ${put.text}`);
      }
      return res.body.id as number;
    },
    close: async () => {
      unregisterDocument(url);
      await app.close();
      if (!opts.database) await database.cleanup();
    },
  };
  return t;
}

/** startApp for the whole file, closed after its tests. */
export async function useApp(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await startApp(env);
  afterAll(() => t.close());
  return t;
}

/** Number of rows in a table. */
export async function countRows(
  db: Db,
  table:
    | 'sessions'
    | 'streamers'
    | 'comments'
    | 'ratings'
    | 'rater_groups'
    | 'rater_group_members'
    | 'users'
    | 'moderators'
    | 'community_ratings',
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
