import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { type Static, Type } from 'typebox';
import { type Provider, PROVIDER_NAMES, PROVIDERS } from '../shared/rules.ts';
import { fail } from '../errors.ts';
import { Field, Param } from '../lib/schemas.ts';
import { DEMO_USERS, standInId } from './dev-users.ts';
import { challengeOf } from './pkce.ts';
import { escapeHtml } from '../lib/html.ts';
import { ICON_LINK } from '../shared/site.ts';

/**
 * A development identity provider (DEV_PROVIDERS=true, refused in production): stand-ins for
 * Twitch and Kick served by this process, answering in their shapes, with a page to pick or
 * type a user. It lets anyone try sign-in locally without registering an application.
 */

interface Grant {
  provider: Provider;
  login: string;
  displayName: string;
  redirectUri: string;
  challenge: string | undefined;
  expiresAt: number;
}

const GRANT_TTL_MS = 5 * 60_000;

const AuthorizeQuery = Type.Object({
  client_id: Param(),
  redirect_uri: Param(),
  state: Param(),
  code_challenge: Param(),
  code_challenge_method: Param(),
  /** A sample user's button. */
  login: Param(),
  /** The typed login, a separate field so the two never collide. */
  typed_login: Param(),
  display_name: Param(),
  deny: Param(),
});
type AuthorizeQuery = Static<typeof AuthorizeQuery>;
const text = Type.String();
const TokenBody = Type.Object({
  code: Field('bad_request', text),
  client_id: Field('bad_request', text),
  client_secret: Field('bad_request', text),
  redirect_uri: Field('bad_request', text),
  code_verifier: Field('bad_request', text),
  grant_type: Field('bad_request', text),
});

/** The provider in the path; anything else is 404 (`providerOf`). */
const ProviderParams = Type.Object({ provider: Type.String({ maxLength: 20 }) });

const numericId = standInId;

/**
 * The stand-in providers' sign-in. `appTokens` holds the app tokens it grants (client-credentials
 * grant), which the stand-in live APIs (sync/dev-live.ts) accept: app.ts hands both the same set.
 */
export const devProviderRoutes: FastifyPluginAsyncTypebox<{ appTokens: Set<string> }> = async (
  app,
  { appTokens },
) => {
  const { config, clock } = app;
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();

  const providerOf = (value: string): Provider => {
    if (!PROVIDERS.includes(value as Provider)) throw fail('not_found');
    return value as Provider;
  };

  const page = (reply: FastifyReply, provider: Provider, q: AuthorizeQuery, error?: string) => {
    const hidden = (
      ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method'] as const
    )
      .map((k) => (q[k] ? `<input type="hidden" name="${k}" value="${escapeHtml(q[k])}">` : ''))
      .join('');
    // The demo data's users of this provider (dev-users.ts), then two plain visitors.
    const samples = [
      ...DEMO_USERS.filter((u) => u.provider === provider).map((u) => u.login),
      'alice',
      'bob',
    ];
    const buttons = samples
      .map((u) => `<button name="login" value="${u}">${escapeHtml(u)}</button>`)
      .join(' ');
    return reply.type('text/html; charset=utf-8').code(error ? 400 : 200)
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
${ICON_LINK}<title>Development sign-in (${PROVIDER_NAMES[provider]})</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}button{margin:.25rem;padding:.5rem 1rem}
input[type=text]{padding:.4rem;width:100%;box-sizing:border-box}.note{color:#a33}label{display:block;margin-top:.75rem}</style></head>
<body><h1>Development sign-in: ${PROVIDER_NAMES[provider]}</h1>
<p>This stands in for ${PROVIDER_NAMES[provider]} while <code>DEV_PROVIDERS=true</code>. Nothing leaves this machine.</p>
${error ? `<p class="note">${escapeHtml(error)}</p>` : ''}
<form method="get" action="/dev/oauth/${provider}/authorize">${hidden}
<p>Sign in as:</p><p>${buttons}</p>
<label for="typed_login">or type a login</label><input type="text" id="typed_login" name="typed_login" maxlength="60" autocomplete="off">
<label for="display_name">display name (optional)</label><input type="text" id="display_name" name="display_name" maxlength="60">
<p><button type="submit">Sign in</button> <button name="deny" value="1">Deny</button></p></form></body></html>`);
  };

  app.get(
    '/dev/oauth/:provider/authorize',
    {
      config: { guard: 'public' },
      schema: {
        summary: 'Development stand-in for the provider authorization page',
        params: ProviderParams,
        querystring: AuthorizeQuery,
      },
    },
    async (request, reply) => {
      const provider = providerOf(request.params.provider);
      const q = request.query;
      const settings = config.providers[provider];
      // Only ever send the browser back to our own registered callback (no open redirect).
      if (q.client_id !== settings.clientId || q.redirect_uri !== settings.redirectUri) {
        return page(reply, provider, q, 'Unknown client or redirect_uri.');
      }
      if (provider === 'provider_b' && (!q.code_challenge || q.code_challenge_method !== 'S256')) {
        return page(reply, provider, q, 'PKCE with S256 is required.');
      }
      const back = new URL(settings.redirectUri);
      if (q.deny) {
        back.searchParams.set('error', 'access_denied');
      } else {
        const login = (q.login || q.typed_login || '')
          .trim()
          .toLowerCase()
          .replace(/[^a-z0-9_]/g, '');
        if (!login) return page(reply, provider, q);
        const code = randomBytes(16).toString('hex');
        grants.set(code, {
          provider,
          login,
          displayName:
            (q.display_name ?? '').trim() ||
            DEMO_USERS.find((u) => u.login === login && u.provider === provider)?.display ||
            login,
          redirectUri: settings.redirectUri,
          challenge: q.code_challenge,
          expiresAt: clock.now().getTime() + GRANT_TTL_MS,
        });
        back.searchParams.set('code', code);
      }
      if (q.state) back.searchParams.set('state', q.state);
      return reply.redirect(back.toString(), 302);
    },
  );

  app.post(
    '/dev/oauth/:provider/token',
    {
      config: { guard: 'public' },
      schema: {
        summary: 'Development stand-in for the provider token endpoint',
        params: ProviderParams,
        body: TokenBody,
      },
    },
    async (request, reply) => {
      const provider = providerOf(request.params.provider);
      const form = request.body;
      const settings = config.providers[provider];
      if (form.grant_type === 'client_credentials') {
        if (form.client_id !== settings.clientId || form.client_secret !== settings.clientSecret) {
          return reply.code(400).send({ status: 400, message: 'invalid client' });
        }
        const token = randomBytes(24).toString('hex');
        appTokens.add(token);
        return { access_token: token, expires_in: 5_000_000, token_type: 'bearer' };
      }
      const grant = grants.get(String(form.code ?? ''));
      grants.delete(String(form.code ?? ''));
      const valid =
        grant &&
        grant.provider === provider &&
        grant.expiresAt > clock.now().getTime() &&
        form.grant_type === 'authorization_code' &&
        form.client_id === settings.clientId &&
        form.client_secret === settings.clientSecret &&
        form.redirect_uri === grant.redirectUri &&
        (provider === 'provider_a' || challengeOf(String(form.code_verifier ?? '')) === grant.challenge);
      if (!valid) {
        return reply
          .code(400)
          .send(
            provider === 'provider_a'
              ? { status: 400, message: 'Invalid authorization code' }
              : { error: 'invalid_grant', error_description: 'Invalid code, verifier or redirect_uri' },
          );
      }
      const token = randomBytes(24).toString('hex');
      tokens.set(token, grant);
      return provider === 'provider_a'
        ? {
            access_token: token,
            expires_in: 14124,
            refresh_token: '',
            scope: ['user:read:email'],
            token_type: 'bearer',
          }
        : {
            access_token: token,
            token_type: 'Bearer',
            refresh_token: '',
            expires_in: 7200,
            scope: 'user:read channel:read',
          };
    },
  );

  app.get(
    '/dev/oauth/:provider/users',
    {
      config: { guard: 'public' },
      schema: { summary: 'Development stand-in for the provider user endpoint', params: ProviderParams },
    },
    async (request, reply) => {
      const provider = providerOf(request.params.provider);
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      const grant = tokens.get(token);
      if (!grant || grant.provider !== provider) {
        return reply
          .code(401)
          .send(
            provider === 'provider_a'
              ? { error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' }
              : { data: {}, message: 'Unauthorized' },
          );
      }
      return provider === 'provider_a'
        ? {
            data: [
              {
                id: String(numericId(grant.login)),
                login: grant.login,
                display_name: grant.displayName,
                profile_image_url: '',
              },
            ],
          }
        : { data: [{ user_id: numericId(grant.login), name: grant.displayName, email: '' }], message: 'OK' };
    },
  );

  const sweep = setInterval(() => {
    const now = clock.now().getTime();
    for (const [code, g] of grants) if (g.expiresAt <= now) grants.delete(code);
  }, 60_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
};
