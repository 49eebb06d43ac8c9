import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Clock, DAY } from '../lib/clock.ts';
import { httpsDetected } from '../lib/https.ts';
import { GUEST_COMMENTS_KEPT, SESSION_DAYS } from '../shared/rules.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The key a guest's own-comments cookie is signed with, derived from the session secret. */
    ownCommentsKey: string;
  }
}

/**
 * The comments a browser posted as a guest, kept in a cookie of its own signed by the service
 * (docs/decisions.md "A guest's own comments and the operator"): posting writes no session
 * row, so a guest's post stays one transaction and one fsync. The value is
 * `<until>.<id>-<id>-...<id>.<mac>`: until when it counts (epoch seconds, the sessions' idle
 * timeout after its last change), the newest GUEST_COMMENTS_KEPT ids, newest last, and an
 * HMAC-SHA256 of both (base64url). A value that is malformed, forged or past its time owns
 * nothing.
 */
export const OWN_TTL_MS = SESSION_DAYS.idle * DAY;
const VALUE = /^(\d{1,12})\.((?:\d{1,15}(?:-\d{1,15})*)?)\.([A-Za-z0-9_-]{43})$/;

/** The signing key: never the session secret itself. */
export const ownCommentsKey = (sessionSecret: string): string =>
  createHmac('sha256', sessionSecret).update('guest-own-comments').digest('hex');

const macOf = (key: string, payload: string): Buffer =>
  createHmac('sha256', key).update(`own:${payload}`).digest();

export interface OwnCookie {
  /** The ids this browser posted as a guest, newest last; null when it holds no valid cookie. */
  read(request: FastifyRequest): number[] | null;
  /** Sets the cookie to these ids (the newest GUEST_COMMENTS_KEPT), valid for OWN_TTL_MS from now. */
  write(request: FastifyRequest, reply: FastifyReply, ids: readonly number[]): void;
}

export function ownCookie(opts: { key: string; https: boolean; clock: Clock }): OwnCookie {
  const name = opts.https ? '__Host-own' : 'own';
  return {
    read(request) {
      const value = request.cookies[name];
      const m = value === undefined ? null : VALUE.exec(value);
      if (!m) return null;
      const [, until = '', list = '', mac = ''] = m;
      const expected = macOf(opts.key, `${until}.${list}`);
      const given = Buffer.from(mac, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      if (Number(until) * 1000 < opts.clock.now().getTime()) return null;
      return list === '' ? [] : list.split('-').map(Number);
    },
    write(request, reply, ids) {
      const kept = ids.slice(-GUEST_COMMENTS_KEPT);
      const until = Math.floor((opts.clock.now().getTime() + OWN_TTL_MS) / 1000);
      const payload = `${until}.${kept.join('-')}`;
      reply.setCookie(name, `${payload}.${macOf(opts.key, payload).toString('base64url')}`, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        maxAge: OWN_TTL_MS / 1000,
        secure: opts.https || httpsDetected(request),
      });
    },
  };
}
