import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { json, readForm } from './fake-http.ts';

/**
 * Fake Twitch (provider_a) and Kick (provider_b) as one real HTTP server on 127.0.0.1,
 * answering with the shapes of shared/spec/PROVIDERS.md. provider_b verifies PKCE and the
 * redirect URI; provider_a checks Client-Id and the bearer token. Each can be told to fail.
 */

export type Failure =
  | 'none'
  | 'deny' // authorize answers error=access_denied
  | 'token_error' // token 400 with the provider's own error message
  | 'token_error_empty' // token 400 with an empty body
  | 'token_error_description' // token 400 with only error_description (OAuth style)
  | 'token_no_access_token' // token 200 without access_token
  | 'token_hang' // token never answers
  | 'user_error' // user 401
  | 'user_empty' // user 200 with an empty list
  | 'user_hang'; // user never answers

export interface FakeUser {
  id: string | number;
  login: string;
  display_name: string;
  avatar?: string;
}

interface Grant {
  redirectUri: string;
  clientId: string;
  challenge?: string;
  user: FakeUser;
}

export interface ProviderState {
  clientId: string;
  clientSecret: string;
  failure: Failure;
  /** The user the next authorization signs in as. */
  nextUser: FakeUser;
  grants: Map<string, Grant>;
  tokens: Map<string, FakeUser>;
  /** Every token and user request, for assertions. */
  tokenRequests: Record<string, string>[];
  userRequests: { headers: IncomingMessage['headers'] }[];
  /** Every access token handed out, to search logs and answers for. */
  issued: string[];
}

export interface FakeProviders {
  url: string;
  a: ProviderState;
  b: ProviderState;
  env(): Record<string, string>;
  /** Follows an authorize URL as a browser whose user approves: the callback URL we get back. */
  authorize(authorizeUrl: string): Promise<{ status: number; location: string | null }>;
  close(): Promise<void>;
}

const fresh = (clientId: string, clientSecret: string, user: FakeUser): ProviderState => ({
  clientId,
  clientSecret,
  failure: 'none',
  nextUser: user,
  grants: new Map(),
  tokens: new Map(),
  tokenRequests: [],
  userRequests: [],
  issued: [],
});

export async function startFakeProviders(): Promise<FakeProviders> {
  const a = fresh('client-a', 'secret-a', {
    id: '141981764',
    login: 'twitchdev',
    display_name: 'TwitchDev',
    avatar: 'https://static-cdn.example/a.png',
  });
  const b = fresh('client-b', 'secret-b', {
    id: 123456,
    login: '',
    display_name: 'KickUser',
    avatar: 'https://files.kick.example/u.webp',
  });
  const hanging = new Set<ServerResponse>();

  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const q = Object.fromEntries(url.searchParams);
    const route = `${req.method} ${url.pathname}`;

    // ---- provider_a (Twitch) ----
    if (route === 'GET /a/authorize') {
      if (q.client_id !== a.clientId || q.response_type !== 'code' || !q.redirect_uri) {
        return json(res, 400, { status: 400, message: 'invalid client' });
      }
      const back = new URL(q.redirect_uri);
      if (a.failure === 'deny') {
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The user denied you access');
      } else {
        const code = randomBytes(12).toString('hex');
        a.grants.set(code, { redirectUri: q.redirect_uri, clientId: q.client_id, user: a.nextUser });
        back.searchParams.set('code', code);
        back.searchParams.set('scope', q.scope ?? '');
      }
      if (q.state) back.searchParams.set('state', q.state);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (route === 'POST /a/token') {
      const form = await readForm(req);
      a.tokenRequests.push(form);
      if (a.failure === 'token_hang') return void hanging.add(res);
      if (a.failure === 'token_error')
        return json(res, 400, { status: 400, message: 'Invalid authorization code' });
      if (a.failure === 'token_error_empty') return json(res, 400, '');
      if (form.client_secret !== a.clientSecret)
        return json(res, 403, { status: 403, message: 'invalid client secret' });
      const grant = a.grants.get(form.code ?? '');
      if (
        !grant ||
        form.grant_type !== 'authorization_code' ||
        grant.redirectUri !== form.redirect_uri ||
        grant.clientId !== form.client_id
      ) {
        return json(res, 400, { status: 400, message: 'Invalid authorization code' });
      }
      a.grants.delete(form.code!);
      if (a.failure === 'token_no_access_token') return json(res, 200, { token_type: 'bearer' });
      const token = randomBytes(15).toString('hex');
      a.tokens.set(token, grant.user);
      a.issued.push(token);
      return json(res, 200, {
        access_token: token,
        expires_in: 14124,
        refresh_token: randomBytes(15).toString('hex'),
        scope: ['user:read:email'],
        token_type: 'bearer',
      });
    }
    if (route === 'GET /a/users') {
      a.userRequests.push({ headers: req.headers });
      if (a.failure === 'user_hang') return void hanging.add(res);
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const user = a.tokens.get(token);
      if (a.failure === 'user_error' || !user || req.headers['client-id'] !== a.clientId) {
        return json(res, 401, { error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' });
      }
      if (a.failure === 'user_empty') return json(res, 200, { data: [] });
      return json(res, 200, {
        data: [
          {
            id: String(user.id),
            login: user.login,
            display_name: user.display_name,
            type: '',
            broadcaster_type: 'partner',
            description: '',
            ...(user.avatar ? { profile_image_url: user.avatar } : {}),
            offline_image_url: '',
            view_count: 0,
            email: 'dev@example.org',
            created_at: '2016-12-14T20:32:28Z',
          },
        ],
      });
    }

    // ---- provider_b (Kick) ----
    if (route === 'GET /b/authorize') {
      const required = [
        'client_id',
        'response_type',
        'redirect_uri',
        'state',
        'scope',
        'code_challenge',
        'code_challenge_method',
      ];
      // Kick bounces an incomplete request to a 404 page.
      if (required.some((k) => !q[k]) || q.code_challenge_method !== 'S256' || q.client_id !== b.clientId) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404</h1>');
        return;
      }
      const back = new URL(q.redirect_uri!);
      if (b.failure === 'deny') {
        back.searchParams.set('error', 'access_denied');
      } else {
        const code = randomBytes(12).toString('hex');
        b.grants.set(code, {
          redirectUri: q.redirect_uri!,
          clientId: q.client_id,
          challenge: q.code_challenge!,
          user: b.nextUser,
        });
        back.searchParams.set('code', code);
      }
      back.searchParams.set('state', q.state!);
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (route === 'POST /b/token') {
      const form = await readForm(req);
      b.tokenRequests.push(form);
      if (b.failure === 'token_hang') return void hanging.add(res);
      if (b.failure === 'token_error') return json(res, 400, { error: 'Invalid request' });
      if (b.failure === 'token_error_empty') return json(res, 400, '');
      if (b.failure === 'token_error_description')
        return json(res, 400, { error_description: 'code expired' });
      const grant = b.grants.get(form.code ?? '');
      const challenge = createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url');
      const ok =
        grant &&
        form.grant_type === 'authorization_code' &&
        form.client_id === b.clientId &&
        (!b.clientSecret || form.client_secret === b.clientSecret) &&
        grant.redirectUri === form.redirect_uri &&
        grant.challenge === challenge;
      if (!ok)
        return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE or redirect_uri mismatch' });
      b.grants.delete(form.code!);
      if (b.failure === 'token_no_access_token') return json(res, 200, { token_type: 'Bearer' });
      const token = randomBytes(15).toString('hex');
      b.tokens.set(token, grant.user);
      b.issued.push(token);
      return json(res, 200, {
        access_token: token,
        token_type: 'Bearer',
        refresh_token: randomBytes(15).toString('hex'),
        expires_in: 7200,
        scope: 'user:read channel:read',
      });
    }
    if (route === 'GET /b/users') {
      b.userRequests.push({ headers: req.headers });
      if (b.failure === 'user_hang') return void hanging.add(res);
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const user = b.tokens.get(token);
      if (b.failure === 'user_error' || !user) return json(res, 401, { data: {}, message: 'Unauthorized' });
      if (b.failure === 'user_empty') return json(res, 200, { data: [], message: 'OK' });
      return json(res, 200, {
        data: [
          {
            user_id: user.id,
            name: user.display_name,
            email: 'kick@example.org',
            ...(user.avatar ? { profile_picture: user.avatar } : {}),
          },
        ],
        message: 'OK',
      });
    }
    json(res, 404, { message: 'not found' });
  };
  const server: Server = createServer((req, res) => void answer(req, res));

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    a,
    b,
    env: () => ({
      PROVIDER_A_CLIENT_ID: a.clientId,
      PROVIDER_A_CLIENT_SECRET: a.clientSecret,
      PROVIDER_A_AUTHORIZE_URL: `${url}/a/authorize`,
      PROVIDER_A_TOKEN_URL: `${url}/a/token`,
      PROVIDER_A_USER_URL: `${url}/a/users`,
      PROVIDER_B_CLIENT_ID: b.clientId,
      PROVIDER_B_CLIENT_SECRET: b.clientSecret,
      PROVIDER_B_AUTHORIZE_URL: `${url}/b/authorize`,
      PROVIDER_B_TOKEN_URL: `${url}/b/token`,
      PROVIDER_B_USER_URL: `${url}/b/users`,
    }),
    authorize: async (authorizeUrl) => {
      const res = await fetch(authorizeUrl, { redirect: 'manual' });
      await res.text();
      return { status: res.status, location: res.headers.get('location') };
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
