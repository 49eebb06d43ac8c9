import { api, type Me } from './api.ts';

/** Who is using the page: the signed-in user and the administrator flag. */
export const session = $state<Me & { loaded: boolean; settings: { auth_enabled: boolean } }>({
  user: null,
  is_admin: false,
  is_mod: false,
  banned: false,
  loaded: false,
  settings: { auth_enabled: false },
});

export async function refreshSession(): Promise<void> {
  const [me, settings] = await Promise.all([
    api<Me>('GET', '/api/oauth/me'),
    api<{ auth_enabled: boolean }>('GET', '/api/settings'),
  ]);
  Object.assign(session, me, { settings, loaded: true });
}

export const isStaff = () => session.is_admin || session.is_mod;
