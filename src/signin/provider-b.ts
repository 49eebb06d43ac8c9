import { callProvider, type ProviderAnswer, str } from './http.ts';
import { authorizeUrl, type SignInFlow } from './flow.ts';
import { challengeOf, newState, newVerifier } from './pkce.ts';
import { purgeStates, saveDebug, saveState, takeState } from './queries.ts';

/**
 * provider_b (Kick): authorization code with PKCE (S256). The verifier is kept in the
 * database under the state; the state is also bound to this browser's session (DECISIONS.md).
 */
export const providerB: SignInFlow = {
  async start({ request, provider, db, clock }) {
    const verifier = newVerifier();
    const state = newState();
    const now = clock.now();
    await purgeStates(db, now);
    await saveState(db, state, 'provider_b', verifier, now);
    request.session.set('provider_b_state', state);
    return authorizeUrl(provider.authorizeUrl, {
      client_id: provider.clientId,
      redirect_uri: provider.redirectUri,
      response_type: 'code',
      scope: 'user:read channel:read',
      state,
      code_challenge: challengeOf(verifier),
      code_challenge_method: 'S256',
    });
  },

  async complete({ request, provider, db, clock, timeoutMs }, { code, state }) {
    const { session } = request;
    const bound = session.data.provider_b_state;
    const verifier = state ? await takeState(db, state, 'provider_b', clock.now()) : undefined;
    if (!verifier || !bound || bound !== state) return { error: 'provider_b_invalid_state' };
    session.unset('provider_b_state');

    const token = await callProvider(
      provider.tokenUrl,
      {
        method: 'POST',
        form: {
          grant_type: 'authorization_code',
          client_id: provider.clientId,
          redirect_uri: provider.redirectUri,
          code,
          code_verifier: verifier,
          ...(provider.clientSecret ? { client_secret: provider.clientSecret } : {}),
        },
      },
      timeoutMs,
    );
    if (token.status !== 200) {
      const message =
        str(token.json, 'error') ?? str(token.json, 'message') ?? str(token.json, 'error_description');
      if (message) return { error: `provider_b_token_${token.status}_${message}` };
      session.set('provider_b_diag', { token_status: token.status, token_body: token.text.slice(0, 500) });
      return { error: `provider_b_token_${token.status}_see_debug` };
    }
    const accessToken = str(token.json, 'access_token');
    if (!accessToken) return { error: 'provider_b_no_token' };

    const user = await callProvider(
      provider.userUrl,
      { method: 'GET', headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' } },
      timeoutMs,
    );
    await saveDebug(db, diagnostic(token, user, accessToken), clock.now());
    if (user.status !== 200) return { error: `provider_b_user_failed_${user.status}_see_debug` };

    let u: unknown = user.json;
    if (u && typeof u === 'object' && 'data' in u) u = u.data;
    if (Array.isArray(u)) u = u[0];
    const id = str(u, 'id') ?? str(u, 'user_id');
    if (!id) return { error: 'provider_b_no_user' };
    const login = str(u, 'username') ?? str(u, 'slug') ?? str(u, 'name') ?? '';
    return {
      profile: {
        provider: 'provider_b',
        provider_id: id,
        login,
        display_name: str(u, 'name') ?? str(u, 'username') ?? login,
        avatar: str(u, 'profile_picture') ?? str(u, 'profile_pic') ?? str(u, 'picture') ?? '',
      },
    };
  },
};

/** SPEC.md's `__debug__` content: granted scope, user call status, start of its answer. */
function diagnostic(token: ProviderAnswer, user: ProviderAnswer, accessToken: string) {
  const scope = token.json?.scope;
  return {
    granted_scope: typeof scope === 'string' || Array.isArray(scope) ? scope : null,
    user_status: user.status,
    // A provider could echo the token; it must never be stored.
    user_body: user.text.slice(0, 500).split(accessToken).join('[token]'),
  };
}
