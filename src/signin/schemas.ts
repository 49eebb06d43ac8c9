import { type Static, Type } from 'typebox';
import { DOCUMENTED, Input, Nullable, Param, StringEnum, Timestamp } from '../lib/schemas.ts';
import { PROVIDERS } from '../shared/rules.ts';

/** The page path to return to after signing in: same-origin page paths only (routes.ts). */
export const RETURN_MAX = 200;

const callback = {
  code: Param(Type.String({ description: "The provider's authorization code (at the callback)" })),
  state: Param(Type.String({ description: 'The state the flow started with (at the callback)' })),
  error: Param(Type.String({ description: 'The error the provider reports (at the callback)' })),
  /** The page path to return to after signing in (same-origin paths only). */
  return: Param(
    Type.String({
      maxLength: RETURN_MAX,
      description: 'A page path of this site to come back to, e.g. `/s/3`',
    }),
  ),
};

/** The callback parameters; one string each (repeated ones: the first, see plugins/parsers.ts). */
export const Query = Input(
  {
    action: Param(StringEnum(['login', 'me', 'logout', 'debug'], { description: 'Else 404' })),
    provider: Param(StringEnum(PROVIDERS, { description: 'Required with `action=login` (else 404)' })),
    ...callback,
  },
  ['action'],
);
export type Query = Static<typeof Query>;
export const LoginQuery = Input(callback);
/** Sign-out's page to come back to (same-origin paths only, as for sign-in). */
export const LogoutQuery = Input({ return: callback.return });
/** Any text, so that an unknown provider gets SPEC.md's 404 rather than a schema error. */
export const LoginParams = Type.Object({ provider: Type.String({ [DOCUMENTED]: StringEnum(PROVIDERS) }) });

export const SessionUser = Type.Object(
  {
    id: Type.Integer(),
    provider: StringEnum(PROVIDERS),
    login: Type.String(),
    display_name: Type.String(),
    avatar: Type.String(),
  },
  { title: 'SessionUser' },
);
export const Me = Type.Object(
  {
    user: Nullable(SessionUser),
    is_admin: Type.Boolean(),
    is_mod: Type.Boolean(),
    banned: Type.Boolean(),
    /** The streamers this user speaks for (issue 26), ids ascending; empty when signed out. */
    speaks_for: Type.Array(Type.Integer(), {
      description: 'The streamers the signed-in user speaks for, ids ascending; empty when signed out',
    }),
    /** A moderator's time-out of this user: no contributions until then (issue 29). */
    timeout_until: Nullable(Timestamp()),
    /** DECISIONS.md "Fifth wave" → "E-mail": the confirmed address, or null. */
    email: Nullable(Type.String({ description: 'Your confirmed e-mail address, or null' })),
    email_pending: Type.Boolean({ description: 'An address waits for its confirmation' }),
  },
  { title: 'Me' },
);

export const Debug = Type.Object(
  {
    session_id: Type.String(),
    oauth_user: Nullable(SessionUser),
    provider_b_debug: Type.Unknown({ description: "The last provider_b sign-in's diagnostics, or null" }),
    provider_a_redirect: Type.String(),
    provider_b_redirect: Type.String(),
    provider_a_client_set: Type.Boolean(),
    provider_b_client_set: Type.Boolean(),
    https_detected: Type.Boolean(),
    recent_db_states: Type.Array(
      Type.Object({ state: Type.String(), provider: Type.String(), created_at: Timestamp() }),
    ),
  },
  { title: 'SignInDebug' },
);
