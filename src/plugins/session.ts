import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/schema.ts';
import { type Clock, DAY, HOUR, MINUTE } from '../lib/clock.ts';
import { findViewer, type ViewerUser } from '../users/queries.ts';

/** The signed-in user as SPEC.md's `oauth_user` holds it. */
export interface SessionUser {
  id: number;
  provider: string;
  login: string;
  display_name: string;
  avatar: string;
}

export interface SessionData {
  is_admin?: boolean;
  /** When the administrator logged in; the flag lapses 12 hours later. */
  admin_at?: string;
  oauth_user?: SessionUser;
  /** provider_a flow (transient). */
  oauth_state?: string;
  oauth_provider?: string;
  /** provider_b flow: the state is bound to this browser too (DECISIONS.md, login CSRF). */
  provider_b_state?: string;
  /** Diagnostics of a provider_b failure without a message. */
  provider_b_diag?: unknown;
}

export interface Viewer {
  isAdmin: boolean;
  /** The signed-in user, null when signed out or banned. */
  user: ViewerUser | null;
  isMod: boolean;
  /** The session names a user whose record is banned. */
  bannedUser: boolean;
}

export const IDLE_TIMEOUT = 14 * DAY;
export const ABSOLUTE_TIMEOUT = 30 * DAY;
export const ADMIN_TIMEOUT = 12 * HOUR;
/** seen_at is refreshed at most this often, so reading pages is not a write per request. */
const TOUCH_INTERVAL = 5 * MINUTE;

/**
 * A server-side session. Nothing is stored until data is written, so anonymous visitors
 * create no rows. `regenerate()` gives the session a new id at the next write and deletes the
 * old row at once (session fixation).
 */
export class Session {
  data: SessionData;
  dirty = false;
  regenerateRequested = false;

  constructor(
    /** The cookie value, null for a new session. */
    readonly cookieId: string | null,
    data: SessionData,
    readonly createdAt: string | null,
    readonly seenAt: string | null,
  ) {
    this.data = data;
  }

  set<K extends keyof SessionData>(key: K, value: SessionData[K]): void {
    this.data[key] = value;
    this.dirty = true;
  }

  unset(key: keyof SessionData): void {
    if (key in this.data) {
      delete this.data[key];
      this.dirty = true;
    }
  }

  regenerate(): void {
    this.regenerateRequested = true;
    this.dirty = true;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    session: Session;
    viewer: Viewer;
  }
  interface FastifyInstance {
    /** Cookie name in use: `__Host-sid` on https, `sid` otherwise. */
    sessionCookieName: string;
    /** A short identifier of a session for diagnostics; it cannot be used as a cookie. */
    sessionTag(cookieId: string): string;
  }
}

export interface SessionOptions {
  db: Db;
  clock: Clock;
  secret: string;
  /** BASE_URL is https: cookie `__Host-sid`, always Secure. */
  https: boolean;
}

/** SPEC.md's https detection: a TLS socket, X-Forwarded-Proto https, or port 443. */
export function httpsDetected(request: FastifyRequest): boolean {
  const proto = request.headers['x-forwarded-proto'];
  const encrypted = (request.raw.socket as { encrypted?: boolean }).encrypted === true;
  return encrypted || proto === 'https' || request.raw.socket.localPort === 443;
}

function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

export const sessionPlugin = fp(
  async (app: FastifyInstance, opts: SessionOptions) => {
    const { db, clock } = opts;
    const cookieName = opts.https ? '__Host-sid' : 'sid';
    const hash = (id: string) => createHmac('sha256', opts.secret).update(id).digest('hex');
    app.decorate('sessionCookieName', cookieName);
    app.decorate('sessionTag', (cookieId: string) => hash(cookieId).slice(0, 16));

    const setCookie = (request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) => {
      const secure = opts.https || httpsDetected(request);
      reply.header(
        'set-cookie',
        `${cookieName}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure ? '; Secure' : ''}`,
      );
    };

    async function load(cookieId: string | undefined): Promise<Session> {
      if (!cookieId || !COOKIE_VALUE.test(cookieId)) return new Session(null, {}, null, null);
      const row = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id', '=', hash(cookieId))
        .executeTakeFirst();
      if (!row) return new Session(null, {}, null, null);
      const now = clock.now().getTime();
      const expired =
        now - Date.parse(row.seen_at) > IDLE_TIMEOUT || now - Date.parse(row.created_at) > ABSOLUTE_TIMEOUT;
      if (expired) {
        await db.deleteFrom('sessions').where('id', '=', row.id).execute();
        return new Session(null, {}, null, null);
      }
      return new Session(cookieId, JSON.parse(row.data) as SessionData, row.created_at, row.seen_at);
    }

    async function viewerOf(session: Session): Promise<Viewer> {
      const { data } = session;
      let isAdmin = data.is_admin === true;
      if (isAdmin && !(clock.now().getTime() - Date.parse(data.admin_at ?? '') < ADMIN_TIMEOUT)) {
        session.unset('is_admin');
        session.unset('admin_at');
        isAdmin = false;
      }
      if (!data.oauth_user) return { isAdmin, user: null, isMod: false, bannedUser: false };
      const found = await findViewer(db, data.oauth_user.id);
      if (!found || found.banned) {
        return { isAdmin, user: null, isMod: false, bannedUser: Boolean(found?.banned) };
      }
      return { isAdmin, user: found.user, isMod: found.isMod, bannedUser: false };
    }

    async function persist(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const session = request.session;
      const now = clock.now().toISOString();
      const empty = Object.keys(session.data).length === 0;
      const oldKey = session.cookieId ? hash(session.cookieId) : null;

      if (!session.dirty) {
        if (oldKey && session.seenAt && Date.parse(now) - Date.parse(session.seenAt) > TOUCH_INTERVAL) {
          await db.updateTable('sessions').set({ seen_at: now }).where('id', '=', oldKey).execute();
        }
        return;
      }
      if (empty) {
        if (oldKey) {
          await db.deleteFrom('sessions').where('id', '=', oldKey).execute();
          setCookie(request, reply, '', 0);
        }
        return;
      }
      const data = JSON.stringify(session.data);
      if (oldKey && !session.regenerateRequested) {
        await db.updateTable('sessions').set({ data, seen_at: now }).where('id', '=', oldKey).execute();
        return;
      }
      if (oldKey) await db.deleteFrom('sessions').where('id', '=', oldKey).execute();
      const cookieId = randomBytes(32).toString('base64url');
      await db
        .insertInto('sessions')
        .values({ id: hash(cookieId), data, created_at: now, seen_at: now })
        .execute();
      setCookie(request, reply, cookieId, ABSOLUTE_TIMEOUT / 1000);
    }

    app.decorateRequest('session', null as unknown as Session);
    app.decorateRequest('viewer', null as unknown as Viewer);

    app.addHook('onRequest', async (request) => {
      const cookieId = parseCookies(request.headers.cookie).get(cookieName);
      request.session = await load(cookieId);
      request.viewer = await viewerOf(request.session);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (request.session) await persist(request, reply);
      return payload;
    });

    const purge = async () => {
      const now = clock.now().getTime();
      await db
        .deleteFrom('sessions')
        .where((eb) =>
          eb.or([
            eb('seen_at', '<', new Date(now - IDLE_TIMEOUT).toISOString()),
            eb('created_at', '<', new Date(now - ABSOLUTE_TIMEOUT).toISOString()),
          ]),
        )
        .execute();
    };
    const timer = setInterval(() => purge().catch((err) => app.log.warn({ err }, 'session purge')), HOUR);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'session' },
);
