import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { type Clock, HOUR } from '../lib/clock.ts';
import type { SessionUserRow } from '../sessions/store.ts';
import { addRouteHook } from './route-hooks.ts';
import type { SessionFacts } from './session.ts';

export const ADMIN_TIMEOUT = 12 * HOUR;

/** Who is calling, as guards and handlers see it. */
export interface Viewer {
  /** An administrator: by the shared password, or by a personal administrator account. */
  isAdmin: boolean;
  /** The administrator flag comes from the shared password (not only from the account). */
  passwordAdmin: boolean;
  /** The signed-in user, null when signed out or banned (DECISIONS.md). */
  user: Omit<SessionUserRow, 'banned' | 'is_mod' | 'is_admin' | 'in_team'> | null;
  isMod: boolean;
  /** The signed-in user is a member of some team (loaded with the session: no query of its own). */
  inTeam: boolean;
  /** The session names a user whose record is banned. */
  bannedUser: boolean;
  /** This session's user was banned, now or before (it may not post as a guest). */
  bannedSession: boolean;
  /** The user who signed out of this session last (a time-out of theirs follows the browser), or null. */
  signedOut: number | null;
}

/** A visitor: no session, no administrator password. */
export const ANONYMOUS: Viewer = Object.freeze({
  isAdmin: false,
  passwordAdmin: false,
  user: null,
  isMod: false,
  inTeam: false,
  bannedUser: false,
  bannedSession: false,
  signedOut: null,
});

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer;
  }
  interface FastifyInstance {
    /**
     * The viewer a session cookie makes now, as a request with it would get (a session signed
     * out, timed out or gone: ANONYMOUS), without changing the session.
     */
    sessionViewerOf(cookieId: string): Promise<Viewer>;
  }
}

/**
 * The viewer a signed-in account's record (not banned) makes, with what its session adds (none:
 * the account alone, as an open event stream asks it again).
 */
export function accountViewer(
  row: SessionUserRow,
  session: Pick<Viewer, 'passwordAdmin' | 'bannedSession' | 'signedOut'> = {
    passwordAdmin: false,
    bannedSession: false,
    signedOut: null,
  },
): Viewer {
  const { banned: _, is_mod, is_admin, in_team, ...user } = row;
  const { passwordAdmin, bannedSession, signedOut } = session;
  return {
    isAdmin: passwordAdmin || is_admin,
    passwordAdmin,
    user,
    isMod: is_mod,
    inTeam: in_team,
    bannedUser: false,
    bannedSession,
    signedOut,
  };
}

/** The viewer a session makes, given whether its shared password's flag still holds. */
function viewerFrom({ data, user }: SessionFacts, passwordAdmin: boolean): Viewer {
  const row = data.oauth_user ? user : null;
  const bannedSession = data.banned === true;
  const signedOut = data.signed_out ?? null;
  if (!row || row.banned) {
    return {
      isAdmin: passwordAdmin,
      passwordAdmin,
      user: null,
      isMod: false,
      inTeam: false,
      bannedUser: Boolean(row?.banned),
      bannedSession,
      signedOut,
    };
  }
  return accountViewer(row, { passwordAdmin, bannedSession, signedOut });
}

/**
 * The current viewer, from the session and the user record loaded with it: the shared
 * password's administrator flag (lapsing 12 hours after login, ended by a change of the
 * password or by ADMIN_PASSWORD_LOGIN=false), the signed-in user unless banned, the user's
 * moderator and administrator flags and whether they are in a team. No query of its own. `app.sessionViewerOf` makes
 * the same viewer of a session cookie again (an open event stream asks it for each change).
 */
export const viewerPlugin = fp(
  async (app: FastifyInstance, opts: { clock: Clock; passwordLogin: boolean }) => {
    app.decorateRequest('viewer', null as unknown as Viewer);
    /** Whether a session's administrator flag from the shared password holds now. */
    const passwordAdminOf = ({ data, adminGeneration, adminSinceMs }: SessionFacts): boolean =>
      data.is_admin === true &&
      opts.passwordLogin &&
      (data.admin_gen ?? '') === adminGeneration &&
      opts.clock.now().getTime() - adminSinceMs < ADMIN_TIMEOUT;
    app.decorate('sessionViewerOf', async (cookieId: string): Promise<Viewer> => {
      const facts = await app.sessionFactsOf(cookieId);
      return facts === null ? ANONYMOUS : viewerFrom(facts, passwordAdminOf(facts));
    });
    const viewerHook: onRequestHookHandler = (request, _reply, done) => {
      viewerOf(request);
      done();
    };
    // On the routes that read a session (plugins/session.ts), after its loading hook.
    app.addHook('onRoute', (route) => {
      if (route.config?.session !== false) addRouteHook(route, viewerHook);
    });
    const viewerOf = (request: FastifyRequest): void => {
      request.viewer = ANONYMOUS;
      const { session } = request;
      if (!session?.cookieId) return;
      const { data } = session;
      const facts: SessionFacts = {
        data,
        user: request.sessionUser,
        adminGeneration: request.adminGeneration,
        adminSinceMs: session.adminSinceMs,
      };
      const passwordAdmin = passwordAdminOf(facts);
      if (data.is_admin === true && !passwordAdmin) {
        session.unset('is_admin');
        session.unset('admin_at');
        session.unset('admin_gen');
      }
      if (data.oauth_user && request.sessionUser?.banned && !data.banned) session.set('banned', true);
      request.viewer = viewerFrom(facts, passwordAdmin);
    };
  },
  { name: 'viewer', dependencies: ['session'] },
);
