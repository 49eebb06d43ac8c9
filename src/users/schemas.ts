import { Type } from 'typebox';
import { errors, IdDoc, Input, Lenient, Ok, Param, StringEnum, Timestamp } from '../lib/schemas.ts';
import { PROVIDERS } from '../shared/rules.ts';

export const UserItem = Type.Object(
  {
    id: Type.Integer(),
    provider: StringEnum(PROVIDERS),
    provider_id: Type.String(),
    login: Type.String(),
    display_name: Type.String(),
    avatar: Type.String(),
    last_seen: Timestamp(),
    banned: Type.Boolean(),
    is_mod: Type.Boolean(),
    /** A personal administrator account. */
    is_admin: Type.Boolean(),
  },
  { title: 'User' },
);

/** The longest search text kept (users/routes.ts cuts to it). */
export const SEARCH_MAX = 200;

export const listSchema = {
  summary:
    'Users who signed in, with ban, moderator and administrator flags; `q` searches login and display name',
  querystring: Input({
    q: Param(Type.String({ maxLength: SEARCH_MAX, description: 'Part of a login or display name' })),
  }),
  response: { 200: Type.Array(UserItem), ...errors(401) },
};
export const updateSchema = {
  summary:
    'Ban or unban a user (a ban clears the administrator flag), make or unmake a moderator or an administrator',
  querystring: Input({ id: Param(IdDoc()) }, ['id']),
  body: Input({
    banned: Lenient(Type.Boolean({ description: 'Ban (signs the user out everywhere) or unban' })),
    is_mod: Lenient(Type.Boolean({ description: 'Make or unmake a moderator' })),
    is_admin: Lenient(Type.Boolean({ description: 'Make or unmake an administrator (not a banned user)' })),
  }),
  response: { 200: Ok, ...errors(400, 401, 404, 409) },
};
