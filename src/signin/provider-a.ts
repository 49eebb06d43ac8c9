import { callProvider, str } from './http.ts';
import { authorizeUrl, type SignInFlow } from './flow.ts';
import { newState } from './pkce.ts';

/** provider_a (Twitch): authorization code with the state kept in the session. */
export const providerA: SignInFlow = {
  async start({ request, provider }) {
    const state = newState();
    request.session.set('oauth_state', state);
    request.session.set('oauth_provider', 'provider_a');
    return authorizeUrl(provider.authorizeUrl, {
      client_id: provider.clientId,
      redirect_uri: provider.redirectUri,
      response_type: 'code',
      scope: 'user:read:email',
      state,
      force_verify: 'false',
    });
  },

  async complete({ request, provider, timeoutMs }, { code, state }) {
    const { session } = request;
    const expected = session.data.oauth_provider === 'provider_a' ? session.data.oauth_state : undefined;
    if (!state || !expected || state !== expected) return { error: 'invalid_state' };
    session.unset('oauth_state');
    session.unset('oauth_provider');

    const token = await callProvider(
      provider.tokenUrl,
      {
        method: 'POST',
        form: {
          client_id: provider.clientId,
          client_secret: provider.clientSecret,
          code,
          grant_type: 'authorization_code',
          redirect_uri: provider.redirectUri,
        },
      },
      timeoutMs,
    );
    if (token.status !== 200) return { error: `provider_a_token_failed_${token.status}` };
    const accessToken = str(token.json, 'access_token');
    if (!accessToken) return { error: 'provider_a_no_token' };

    const user = await callProvider(
      provider.userUrl,
      { method: 'GET', headers: { 'Client-ID': provider.clientId, Authorization: `Bearer ${accessToken}` } },
      timeoutMs,
    );
    if (user.status !== 200) return { error: 'provider_a_user_failed' };
    const data = user.json?.data;
    const first: unknown = Array.isArray(data) ? data[0] : undefined;
    const id = str(first, 'id');
    if (!id) return { error: 'provider_a_no_user' };
    const login = str(first, 'login') ?? '';
    return {
      profile: {
        provider: 'provider_a',
        provider_id: id,
        login,
        display_name: str(first, 'display_name') ?? login,
        avatar: str(first, 'profile_image_url') ?? '',
      },
    };
  },
};
