/**
 * Signing a visitor in for the bench: a sign-in needs an identity provider, and the only one a
 * benchmark has is the service's own development stand-in (`DEV_PROVIDERS=true`). Every row
 * that needs a signed-in user signs in here, on a service started with the stand-in.
 */
import { request } from './http.ts';

/** Signs in through the service's own stand-in provider; answers the session's cookie header. */
export async function signIn(base: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = `${base}/api/oauth/login/provider_a`;
  for (let hop = 0; hop < 5; hop++) {
    const answer = await request(url, { headers: { cookie: cookie() } });
    for (const line of [answer.headers['set-cookie'] ?? []].flat()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = answer.headers.location;
    if (answer.status !== 302 || !location) break;
    const next = new URL(location, url);
    if (next.pathname.startsWith('/dev/')) next.searchParams.set('login', login);
    url = next.toString();
  }
  if (!jar.get('sid')) throw new Error('the stand-in sign-in set no session cookie');
  return `sid=${jar.get('sid')}`;
}
