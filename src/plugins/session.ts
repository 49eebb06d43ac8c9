import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { DbContext } from '../db/context.ts';
import { type Clock, DAY, HOUR, MINUTE, upkeep } from '../lib/clock.ts';
import { httpsDetected } from '../lib/https.ts';
import { addressDue } from '../sessions/addresses.ts';
import { Session, type SessionData } from '../sessions/session.ts';
import { SESSION_DAYS } from '../shared/rules.ts';
import { addRouteHook } from './route-hooks.ts';
import { type SessionUserRow, SessionStore, type StoredSession } from '../sessions/store.ts';

export const IDLE_TIMEOUT = SESSION_DAYS.idle * DAY;
export const ABSOLUTE_TIMEOUT = SESSION_DAYS.absolute * DAY;
/** seen_at is refreshed at most this often, so reading pages is not a write per request. */
const TOUCH_INTERVAL = 5 * MINUTE;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` for routes that never read or write a session (files, health, documents). */
    session?: false;
  }
  interface FastifyRequest {
    session: Session;
    /** The session user's current record, as loaded with the session. */
    sessionUser: SessionUserRow | null;
    /** The shared password's current generation, as loaded with the session. */
    adminGeneration: string;
    /** The address the loaded session recorded last (sessions/addresses.ts), null with none loaded. */
    sessionAddress: StoredSession['address'] | null;
  }
  interface FastifyInstance {
    /** Cookie name in use: `__Host-sid` on https, `sid` otherwise. */
    sessionCookieName: string;
    /** A short identifier of a session for diagnostics; it cannot be used as a cookie. */
    sessionTag(cookieId: string): string;
    /**
     * The user a session cookie signs in now: null when signed out (also everywhere), timed
     * out, or banned (an open event stream asks it before telling a user's count).
     */
    sessionUserOf(cookieId: string): Promise<number | null>;
    /** What a session cookie's session holds now, null when it has none or it timed out (plugins/viewer.ts). */
    sessionFactsOf(cookieId: string): Promise<SessionFacts | null>;
  }
}

/** What a session holds that makes its viewer (plugins/viewer.ts), loaded with it. */
export interface SessionFacts {
  data: SessionData;
  /** The session user's current record, or null. */
  user: SessionUserRow | null;
  /** The shared password's current generation. */
  adminGeneration: string;
  /** When the administrator logged in (epoch ms, NaN when not). */
  adminSinceMs: number;
}

/** Session keys of recent cookies, so that a repeat visitor's request computes no HMAC. */
const KNOWN_KEYS = 1024;

function hashes(secret: string): (cookieId: string) => string {
  const known = new Map<string, string>();
  return (cookieId) => {
    let key = known.get(cookieId);
    if (key === undefined) {
      key = createHmac('sha256', secret).update(cookieId).digest('hex');
      if (known.size >= KNOWN_KEYS) known.clear();
      known.set(cookieId, key);
    }
    return key;
  };
}

export interface SessionOptions {
  database: DbContext;
  clock: Clock;
  secret: string;
  /** BASE_URL is https: cookie `__Host-sid`, always Secure. */
  https: boolean;
}

/**
 * Server-side sessions in the database, cookie `sid` (DECISIONS.md). The cookie holds 256
 * random bits; the table stores only their HMAC keyed with SESSION_SECRET. Loading a session
 * is one indexed lookup that brings its user along; a request without a session cookie
 * costs nothing, and routes marked `session: false` skip all of it.
 */
export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: SessionOptions) => {
    const { clock } = opts;
    const store = new SessionStore(opts.database);
    const cookieName = opts.https ? '__Host-sid' : 'sid';
    const hash = hashes(opts.secret);
    app.decorate('sessionCookieName', cookieName);
    app.decorate('sessionTag', (cookieId: string) => hash(cookieId).slice(0, 16));

    const setCookie = (request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) => {
      reply.setCookie(cookieName, value, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        maxAge,
        secure: opts.https || httpsDetected(request),
      });
    };

    /** Whether a row has timed out (idle, or past its absolute lifetime). */
    const expired = (row: StoredSession) => {
      const now = clock.now().getTime();
      return now - row.seenMs > IDLE_TIMEOUT || now - row.createdMs > ABSOLUTE_TIMEOUT;
    };
    app.decorate('sessionFactsOf', async (cookieId: string): Promise<SessionFacts | null> => {
      const key = hash(cookieId);
      const row = store.cached(key) ?? (await store.loadAndCache(key));
      if (!row || expired(row)) return null;
      row.parsed ??= JSON.parse(row.data) as SessionData;
      row.adminSinceMs ??= Date.parse(row.parsed.admin_at ?? '');
      const { parsed: data, user, adminGeneration, adminSinceMs } = row;
      return { data, user, adminGeneration, adminSinceMs };
    });
    app.decorate('sessionUserOf', async (cookieId: string) => {
      const session = await app.sessionFactsOf(cookieId);
      const user = session?.data.oauth_user ? session.user : null;
      return user && !user.banned ? user.id : null;
    });

    /** Puts a loaded row on the request; false when it has timed out (and must be deleted). */
    function use(request: FastifyRequest, cookieId: string, row: StoredSession): boolean {
      if (expired(row)) return false;
      // Parsed once per cached row; the session copies it before its first change.
      row.parsed ??= JSON.parse(row.data) as SessionData;
      row.adminSinceMs ??= Date.parse(row.parsed.admin_at ?? '');
      request.session = new Session(cookieId, row.parsed, row.seenMs, true, row.adminSinceMs);
      request.sessionUser = row.user;
      request.adminGeneration = row.adminGeneration;
      request.sessionAddress = row.address;
      return true;
    }

    async function load(request: FastifyRequest, cookieId: string, key: string): Promise<void> {
      const row = await store.loadAndCache(key);
      if (row && !use(request, cookieId, row)) await store.delete(row.key);
    }

    /** A session read but not changed: its seen_at is refreshed every TOUCH_INTERVAL. */
    const stale = (session: Session) =>
      session.cookieId !== null &&
      session.seenAtMs !== null &&
      clock.now().getTime() - session.seenAtMs > TOUCH_INTERVAL;

    /**
     * The user whose session this request's address must be recorded for (a session with a
     * user whose address differs from the one it recorded, or recorded a day ago), else null.
     */
    const addressOwed = (request: FastifyRequest): number | null => {
      const userId = request.session.data.oauth_user?.id;
      if (userId === undefined) return null;
      const recorded = request.sessionAddress ?? { tag: null, atMs: Number.NaN };
      return addressDue(recorded, request.guestTag, clock.now().getTime()) ? userId : null;
    };

    async function persist(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const { session } = request;
      const now = clock.now().toISOString();
      const oldKey = session.cookieId ? hash(session.cookieId) : null;
      const key = await write(request, reply, session, now, oldKey);
      const userId = key === null ? null : addressOwed(request);
      if (key !== null && userId !== null) await store.recordAddress(key, userId, request.guestTag, now);
    }

    /** Writes the session if it changed (or touches it); answers the key of its row, null when it has none. */
    async function write(
      request: FastifyRequest,
      reply: FastifyReply,
      session: Session,
      now: string,
      oldKey: string | null,
    ): Promise<string | null> {
      if (!session.dirty) {
        if (oldKey && session.seenAtMs !== null && Date.parse(now) - session.seenAtMs > TOUCH_INTERVAL) {
          await store.touch(oldKey, now);
        }
        return oldKey;
      }
      if (Object.keys(session.data).length === 0) {
        if (oldKey) {
          await store.delete(oldKey);
          setCookie(request, reply, '', 0);
        }
        return null;
      }
      const data = JSON.stringify(session.data);
      const user_id = session.data.oauth_user?.id ?? null;
      if (oldKey && !session.regenerateRequested) {
        await store.update(oldKey, { data, user_id, now });
        return oldKey;
      }
      if (oldKey) await store.delete(oldKey);
      // A new row has recorded no address yet.
      request.sessionAddress = null;
      const cookieId = randomBytes(32).toString('base64url');
      const key = hash(cookieId);
      await store.insert({ key, data, user_id, now });
      setCookie(request, reply, cookieId, ABSOLUTE_TIMEOUT / 1000);
      return key;
    }

    app.decorateRequest('session', null as unknown as Session);
    app.decorateRequest('sessionUser', null);
    app.decorateRequest('adminGeneration', '');
    app.decorateRequest('sessionAddress', null);

    // A callback hook on each route that reads sessions: a request without a session cookie
    // costs no promise and no query, and a route marked `session: false` nothing at all.
    const loadHook: onRequestHookHandler = (request, _reply, done) => {
      request.session = Session.empty();
      const cookieId = request.cookies[cookieName];
      if (!cookieId || !COOKIE_VALUE.test(cookieId)) return done();
      const key = hash(cookieId);
      // A session read since its last change is answered from memory, without a promise.
      const cached = store.cached(key);
      if (cached && use(request, cookieId, cached)) return done();
      load(request, cookieId, key).then(() => done(), done);
    };
    app.addHook('onRoute', (route) => {
      if (route.config?.session !== false) addRouteHook(route, loadHook);
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      const { session } = request;
      if (!session || !(session.dirty || stale(session) || addressOwed(request) !== null)) {
        return done(null, payload);
      }
      persist(request, reply).then(
        () => done(null, payload),
        (err: Error) => {
          // The error's answer comes through here too: it must not try the same write again
          // (a second failure there is answered in the framework's words, not DECISIONS.md's).
          request.session = Session.empty();
          done(err);
        },
      );
    });

    const purge = async () => {
      const now = clock.now().getTime();
      await store.purge(
        new Date(now - IDLE_TIMEOUT).toISOString(),
        new Date(now - ABSOLUTE_TIMEOUT).toISOString(),
      );
    };
    // Hourly, on the app's clock.
    const stop = upkeep(clock, HOUR, purge, (err) => app.log.warn({ err }, 'session purge'));
    app.addHook('onClose', async () => stop());
  },
  { name: 'session', dependencies: ['@fastify/cookie'] },
);
