import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { type Provider, PROVIDERS } from '../config.ts';
import { notFound } from '../errors.ts';
import { errors } from '../lib/schemas.ts';
import { upsertUser } from '../users/queries.ts';
import type { SignInFlow } from './flow.ts';
import { providerA } from './provider-a.ts';
import { providerB } from './provider-b.ts';
import { readDebug, recentStates } from './queries.ts';
import { httpsDetected } from '../plugins/session.ts';

const flows: Record<Provider, SignInFlow> = { provider_a: providerA, provider_b: providerB };

/** A callback parameter: text, or the first of repeated values. */
const Value = Type.Optional(
  Type.Union([
    Type.String({ maxLength: 4096 }),
    Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 10 }),
  ]),
);
const Query = Type.Object({ action: Value, provider: Value, code: Value, state: Value, error: Value });
type Query = Static<typeof Query>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

const SessionUser = Type.Object({
  id: Type.Integer(),
  provider: Type.String(),
  login: Type.String(),
  display_name: Type.String(),
  avatar: Type.String(),
});
const Me = Type.Object({
  user: Type.Union([SessionUser, Type.Null()]),
  is_admin: Type.Boolean(),
  is_mod: Type.Boolean(),
  banned: Type.Boolean(),
});

const isProvider = (p: string | undefined): p is Provider => PROVIDERS.includes(p as Provider);

/**
 * Sign-in through the providers: `/api/oauth?action=...` and its pretty paths. One route per
 * operation; the provider-specific halves of the flow live in provider-a.ts and provider-b.ts.
 */
export async function signInRoutes(app: FastifyInstance) {
  const { db, config, clock } = app;

  /** Start or complete a sign-in; always a redirect. */
  async function login(request: FastifyRequest, reply: FastifyReply, provider: string | undefined) {
    if (!isProvider(provider)) throw notFound('Not found');
    const settings = config.providers[provider];
    const q = request.query as Query;
    const code = first(q.code);
    const error = first(q.error);
    const back = (target: string) => reply.redirect(target, 302);

    if (!settings.clientId) return back(`/?auth_error=${provider}_not_configured`);
    const ctx = { request, provider: settings, db, clock, timeoutMs: config.providerTimeoutMs };
    if (!code && !error) {
      app.rateLimit.hit(request, 'signin');
      return back(await flows[provider].start(ctx));
    }
    if (error) return back(`/?auth_error=${encodeURIComponent(error)}`);

    const result = await flows[provider].complete(ctx, { code: code!, state: first(q.state) });
    if ('error' in result) {
      request.log.info({ provider, auth_error: result.error }, 'sign-in failed');
      return back(`/?auth_error=${encodeURIComponent(result.error)}`);
    }
    const user = await upsertUser(db, result.profile, clock.now().toISOString());
    request.session.regenerate();
    request.session.set('oauth_user', user);
    request.log.info({ provider, user_id: user.id }, 'signed in');
    return back('/');
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
    };
  }

  async function logout(request: FastifyRequest, reply: FastifyReply) {
    request.session.unset('oauth_user');
    return reply.redirect('/', 302);
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

  const debugGuard = config.oauthDebugPublic ? ('public' as const) : ('admin' as const);
  const publicRoute = { config: { guard: 'public' as const }, schema: { querystring: Query } };

  app.get(
    '/api/oauth',
    {
      config: { guard: (r) => ((r.query as Query).action === 'debug' ? debugGuard : 'public') },
      schema: { querystring: Query },
    },
    async (request, reply) => {
      const q = request.query as Query;
      switch (first(q.action)) {
        case 'login':
          return login(request, reply, first(q.provider));
        case 'me':
          return reply.send(await me(request));
        case 'logout':
          return logout(request, reply);
        case 'debug':
          return reply.send(await debug(request));
        default:
          throw notFound('Not found');
      }
    },
  );
  app.get('/api/oauth/login/:provider', publicRoute, async (request, reply) =>
    login(request, reply, (request.params as { provider: string }).provider),
  );
  app.get('/api/oauth/me', { config: { guard: 'public' }, schema: { response: { 200: Me } } }, me);
  app.get('/api/oauth/logout', { config: { guard: 'public' } }, logout);
  app.get(
    '/api/oauth/debug',
    { config: { guard: debugGuard }, schema: { response: { ...errors(401) } } },
    debug,
  );
}
