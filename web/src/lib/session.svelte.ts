import type { Who } from '../../../src/shared/roles.ts';
import { timeOutRuns } from '../../../src/shared/time-out.ts';
import { call, client, type Me, type Settings, whenSessionGone } from './api.ts';

/** Who is using the page: the signed-in user and the administrator flag. */
export const session = $state<Me & { loaded: boolean; settings: Settings }>({
  user: null,
  is_admin: false,
  is_mod: false,
  banned: false,
  speaks_for: [],
  timeout_until: null,
  email: null,
  email_pending: false,
  loaded: false,
  settings: {
    auth_enabled: false,
    guest_hold: 'none',
    guest_challenge: 'burst',
    refuse_repeats: false,
  },
});

export async function refreshSession(): Promise<void> {
  const [me, settings] = await Promise.all([
    call(client.GET('/api/oauth/me')),
    call(client.GET('/api/settings')),
  ]);
  // The service says `banned` once, as it signs the user out; its next answer is a guest's.
  // The page keeps it for the rest of its life: a guest's form would only be refused.
  Object.assign(session, me, { banned: session.banned || me.banned, settings, loaded: true });
}

// Refused as signed out while the page shows someone signed in: ask again, once.
whenSessionGone(() => {
  if (session.user !== null || session.is_admin) refreshSession().catch(() => {});
});

/** The caller as the service's policies (src/<feature>/policy.ts) see it. */
export const who = (): Who => ({
  isAdmin: session.is_admin,
  isMod: session.is_mod,
  user: session.user,
  bannedUser: session.banned,
});

/**
 * Whether the signed-in user is timed out at `now` (DECISIONS.md "Moderators' tools"): their
 * comments, votes, follows and other writes are refused until `timeout_until`; reading works.
 */
export const timedOutAt = (now: number): boolean => timeOutRuns(session.timeout_until, now);
