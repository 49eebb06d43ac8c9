import { Type } from 'typebox';
import { errors, Lenient, Ok, Param, StringEnum } from '../lib/schemas.ts';
import { PROVIDERS } from '../shared/rules.ts';

export const UserItem = Type.Object({
  id: Type.Integer(),
  provider: StringEnum(PROVIDERS),
  provider_id: Type.String(),
  login: Type.String(),
  display_name: Type.String(),
  avatar: Type.String(),
  last_seen: Type.String(),
  banned: Type.Boolean(),
  is_mod: Type.Boolean(),
  /** A personal administrator account. */
  is_admin: Type.Boolean(),
});

export const listSchema = {
  summary:
    'Users who signed in, with ban, moderator and administrator flags; `q` searches login and display name',
  querystring: Type.Object({ q: Param() }),
  response: { 200: Type.Array(UserItem), ...errors(401) },
};
export const updateSchema = {
  summary:
    'Ban or unban a user (a ban clears the administrator flag), make or unmake a moderator or an administrator',
  querystring: Type.Object({ id: Param() }),
  body: Type.Object({ banned: Lenient(), is_mod: Lenient(), is_admin: Lenient() }),
  response: { 200: Ok, ...errors(400, 401, 404, 409) },
};
