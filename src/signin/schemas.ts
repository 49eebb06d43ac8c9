import { type Static, Type } from 'typebox';
import { Nullable, Param, StringEnum } from '../lib/schemas.ts';
import { PROVIDERS } from '../shared/rules.ts';

/** The callback parameters; one string each (repeated ones: the first, see plugins/parsers.ts). */
export const Query = Type.Object({
  action: Param(),
  provider: Param(),
  code: Param(),
  state: Param(),
  error: Param(),
  /** The page path to return to after signing in (same-origin paths only). */
  return: Param(),
});
export type Query = Static<typeof Query>;

export const SessionUser = Type.Object({
  id: Type.Integer(),
  provider: StringEnum(PROVIDERS),
  login: Type.String(),
  display_name: Type.String(),
  avatar: Type.String(),
});
export const Me = Type.Object({
  user: Nullable(SessionUser),
  is_admin: Type.Boolean(),
  is_mod: Type.Boolean(),
  banned: Type.Boolean(),
});

export const Debug = Type.Object({
  session_id: Type.String(),
  oauth_user: Nullable(SessionUser),
  provider_b_debug: Type.Unknown(),
  provider_a_redirect: Type.String(),
  provider_b_redirect: Type.String(),
  provider_a_client_set: Type.Boolean(),
  provider_b_client_set: Type.Boolean(),
  https_detected: Type.Boolean(),
  recent_db_states: Type.Array(
    Type.Object({ state: Type.String(), provider: Type.String(), created_at: Type.String() }),
  ),
});
