import { addressOf } from '../mail/queries.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type Provider, PROVIDERS } from '../shared/rules.ts';
import { fail } from '../errors.ts';
import { httpsDetected } from '../lib/https.ts';
import { errors, Redirect } from '../lib/schemas.ts';
import { pageKey } from '../shared/pages.ts';
import { limit } from '../plugins/rate-limits.ts';
import { streamersSpokenFor } from '../catalogue/speaks-for.ts';
import { signIn } from '../users/sign-in.ts';
import { type SignInFlow, storedProfile } from './flow.ts';
import { OUTAGE_ANSWER, outagePage, signInTargets } from './outage.ts';
import { providerA } from './provider-a.ts';
import { providerB } from './provider-b.ts';
import { readDebug, recentStates } from './queries.ts';
import { Debug, LoginParams, LoginQuery, LogoutQuery, Me, Query } from './schemas.ts';

const flows: Record<Provider, SignInFlow> = { provider_a: providerA, provider_b: providerB };

const isProvider = (p: string | undefined): p is Provider => PROVIDERS.includes(p as Provider);

/** Resolves return addresses: any origin would do, it only has to be one no address can name. */
const RETURN_BASE = new URL('http://return.invalid');

/**
 * One of the page's own addresses (`/`, `/s/3-name`, `/admin/teams`, with their query), else
 * null. The address is first made what a browser makes of it (backslashes are slashes, dot
 * segments resolved, `%2e%2e` included), and its path is compared decoded (so `%2F` is a
 * slash), so that `/./api/oauth/logout`, `/..//evil.example` or `/%2e%2e//evil.example`
 * cannot pass for a page and become an API call or another host (issue 30, item 5).
 */
export function returnPath(value: string | undefined): string | null {
  if (!value || value.length > 200 || !/^[\w\-./~%?=&+,\\]*$/.test(value)) return null;
  if (!value.startsWith('/') && !value.startsWith('\\')) return null;
  let url: URL;
  let path: string;
  try {
    url = new URL(value.replaceAll('\\', '/'), RETURN_BASE);
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (url.origin !== RETURN_BASE.origin || pageKey(path) === null) return null;
  return url.pathname + url.search;
}

/** A refused sign-in goes back to the page it started from, the code in `auth_error`. */
export function refusedPath(target: string | null, code: string): string {
  const page = target ?? '/';
  return `${page}${page.includes('?') ? '&' : '?'}auth_error=${encodeURIComponent(code)}`;
}

/**
 * Sign-in through the providers: `/api/oauth?action=...` and its pretty paths. One route per
 * operation; the provider-specific halves of the flow live in provider-a.ts and provider-b.ts.
 */
export const signInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, clock } = app;

  /** Start or complete a sign-in; always a redirect. */
  async function login(request: FastifyRequest, reply: FastifyReply, provider: string | undefined, q: Query) {
    if (!isProvider(provider)) throw fail('not_found');
    const settings = config.providers[provider];
    const code = q.code || undefined;
    const error = q.error || undefined;
    const back = (target: string) => reply.redirect(target, 302);

    if (!settings.clientId) return back(refusedPath(returnPath(q.return), `${provider}_not_configured`));
    const ctx = { request, provider: settings, db, clock, timeoutMs: config.providerTimeoutMs };
    if (!code && !error) {
      const target = returnPath(q.return);
      signInTargets.set(request, target);
      if (target) request.session.set('oauth_return', target);
      else if (request.session.data.oauth_return) request.session.unset('oauth_return');
      return back(await flows[provider].start(ctx));
    }
    // The page the sign-in started from, where it ends either way (issue 17, bug 10).
    const target = returnPath(request.session.data.oauth_return);
    signInTargets.set(request, target);
    if (request.session.data.oauth_return) request.session.unset('oauth_return');
    if (error || !code) return back(refusedPath(target, error ?? ''));

    const result = await flows[provider].complete(ctx, { code, state: q.state || undefined });
    if ('error' in result) {
      request.log.info({ provider, auth_error: result.error }, 'sign-in failed');
      return back(refusedPath(target, result.error));
    }
    const user = await signIn(app.ctx, storedProfile(result.profile), request.guestTag);
    request.session.regenerate();
    request.session.set('oauth_user', user);
    // A ban mark belonged to the user who was banned; the viewer sets it again if this one is.
    request.session.unset('banned');
    request.log.info({ provider, user_id: user.id }, 'signed in');
    return back(target ?? '/');
  }

  /** SPEC.md's current user, from the viewer the session plugin loaded for this request. */
  async function me(request: FastifyRequest) {
    const { session, viewer } = request;
    // Only this operation removes a banned user from the session, and says so once.
    if (viewer.bannedUser) session.unset('oauth_user');
    const user = viewer.user ? (session.data.oauth_user ?? null) : null;
    return {
      user,
      is_admin: viewer.isAdmin,
      is_mod: user !== null && viewer.isMod,
      banned: viewer.bannedUser,
      speaks_for: viewer.user ? await streamersSpokenFor(db, viewer.user.id) : [],
      timeout_until: viewer.user?.timeout_until ?? null,
      ...(viewer.user ? await addressOf(db, viewer.user.id) : { email: null, email_pending: false }),
    };
  }

  /** Signs the user out and goes back to the page they were on (`return`), else `/`. */
  async function logout(request: FastifyRequest, reply: FastifyReply, back: string | undefined) {
    const { session } = request;
    const left = session.data.oauth_user?.id;
    session.unset('oauth_user');
    if (left !== undefined) session.set('signed_out', left);
    return reply.redirect(returnPath(back) ?? '/', 302);
  }

  async function debug(request: FastifyRequest) {
    const { session } = request;
    return {
      // An identifier of this session that cannot be used as a cookie.
      session_id: session.cookieId ? app.sessionTag(session.cookieId) : '',
      oauth_user: session.data.oauth_user ?? null,
      provider_b_debug: await readDebug(db),
      provider_a_redirect: config.providers.provider_a.redirectUri,
      provider_b_redirect: config.providers.provider_b.clientId
        ? config.providers.provider_b.redirectUri
        : '',
      provider_a_client_set: config.providers.provider_a.clientId !== '',
      provider_b_client_set: config.providers.provider_b.clientId !== '',
      https_detected: httpsDetected(request),
      recent_db_states: await recentStates(db, 5),
    };
  }

  /**
   * A sign-in the database failed goes back to its page as its other failures do, with a 503.
   * A start may fail before its handler (its count is written first when rate limits are on):
   * its page is then the `return` it was given, as a callback's is the one its session kept.
   */
  const unavailablePage = (request: FastifyRequest) => {
    const q = request.query as Partial<Query>;
    const begun = q.code || q.error ? request.session?.data.oauth_return : q.return;
    return outagePage(refusedPath(signInTargets.get(request) ?? returnPath(begun), 'service_unavailable'));
  };

  const debugGuard = config.oauthDebugPublic ? ('public' as const) : ('admin' as const);
  // Only sign-in starts count against the limit, not the provider's callbacks.
  const startLimit = limit('signin', (q) => Boolean(q.code || q.error));

  app.get(
    '/api/oauth',
    {
      config: {
        guard: (q) => (q.action === 'debug' ? debugGuard : 'public'),
        ...limit('signin', (q) => q.action !== 'login' || Boolean(q.code || q.error)),
        unavailablePage: (request) =>
          (request.query as Partial<Query>).action === 'login' ? unavailablePage(request) : null,
      },
      schema: {
        summary: 'Action form of the sign-in operations (`action`, `provider`)',
        querystring: Query,
        response: {
          200: Type.Union([Me, Debug], {
            description: '`me`: the current user; `debug`: sign-in diagnostics',
          }),
          302: Redirect('`login` and `logout`: to the provider, or back to the page'),
          ...errors(401, 404, 429),
          ...OUTAGE_ANSWER,
        },
      },
    },
    async (request, reply) => {
      const { query } = request;
      switch (query.action) {
        case 'login':
          return login(request, reply, query.provider, query);
        case 'me':
          return reply.send(await me(request));
        case 'logout':
          return logout(request, reply, query.return);
        case 'debug':
          return reply.send(await debug(request));
        default:
          throw fail('not_found');
      }
    },
  );
  app.get(
    '/api/oauth/login/:provider',
    {
      config: { guard: 'public', ...startLimit, unavailablePage },
      schema: {
        summary: 'Start a sign-in, or complete it at the callback (always a redirect)',
        params: LoginParams,
        querystring: LoginQuery,
        response: {
          302: Redirect("To the provider's sign-in page, or at the callback back to the page"),
          ...errors(404, 429),
          ...OUTAGE_ANSWER,
        },
      },
    },
    async (request, reply) => login(request, reply, request.params.provider, request.query),
  );
  app.get(
    '/api/oauth/me',
    {
      config: { guard: 'public' },
      schema: {
        summary: 'The signed-in user, administrator and moderator flags, and the banned notice',
        response: { 200: Me },
      },
    },
    me,
  );
  app.get(
    '/api/oauth/logout',
    {
      config: { guard: 'public' },
      schema: {
        summary: 'Sign the user out, then redirect to the page given in `return` (else `/`)',
        querystring: LogoutQuery,
        response: { 302: Redirect('To the `return` page, or `/`') },
      },
    },
    async (request, reply) => logout(request, reply, request.query.return),
  );
  app.get(
    '/api/oauth/debug',
    {
      config: { guard: debugGuard },
      schema: { summary: 'Sign-in diagnostics', response: { 200: Debug, ...errors(401) } },
    },
    debug,
  );
};
