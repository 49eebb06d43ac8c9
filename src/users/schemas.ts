import { Type } from 'typebox';
import {
  errors,
  Field,
  IdDoc,
  Input,
  Lenient,
  Limit,
  Nullable,
  Ok,
  Param,
  StringEnum,
  Timestamp,
} from '../lib/schemas.ts';
import { LIMITS, PROVIDERS } from '../shared/rules.ts';

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
    /** A moderator's time-out: no writes until then. */
    timeout_until: Nullable(Timestamp()),
    /** Maybe a banned user's return: first signed in from a banned user's address. */
    held: Type.Boolean(),
  },
  { title: 'User' },
);

/** The longest search text kept (users/routes.ts cuts to it). */
export const SEARCH_MAX = 200;

export const listSchema = {
  summary:
    'Users who signed in, most recently seen first, with ban, moderator and administrator flags; `q` searches ' +
    'login and display name, `id` answers that user alone (or none); at most `limit` (1 to 100, default ' +
    '100): no answer is the whole table',
  querystring: Input({
    q: Param(Type.String({ maxLength: SEARCH_MAX, description: 'Part of a login or display name' })),
    id: Param(IdDoc('Only this user')),
    limit: Limit('Default 100'),
  }),
  response: { 200: Type.Array(UserItem), ...errors(400, 401) },
};
export const updateSchema = {
  summary:
    'Ban, unban or time out a user (staff; a moderator only users who are not staff), make or unmake a moderator or an administrator (administrator only)',
  querystring: Input({ id: Param(IdDoc()) }, ['id']),
  body: Input(
    {
      banned: Lenient(
        Type.Boolean({ description: 'Ban (the user is treated as signed out everywhere) or unban' }),
      ),
      is_mod: Lenient(Type.Boolean({ description: 'Make or unmake a moderator (administrator only)' })),
      timeout_hours: Field(
        'invalid_field',
        Type.Integer({
          minimum: 0,
          maximum: LIMITS.timeoutHoursMax,
          description: 'Time the user out for this many hours (no writes); 0 lifts it',
        }),
        'timeout_hours',
      ),
      is_admin: Lenient(
        Type.Boolean({
          description:
            'Make or unmake a personal administrator account (not for a banned user; administrator only)',
        }),
      ),
    },
    [],
    { oneField: true },
  ),
  response: { 200: Ok, ...errors(400, 401, 403, 404, 409) },
};
