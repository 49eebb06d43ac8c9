import { Type } from 'typebox';
import { errors, Nullable, Param, StringEnum } from '../lib/schemas.ts';

export const Entry = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  actor: StringEnum(['admin', 'user', 'cli']),
  actor_user_id: Nullable(Type.Integer()),
  action: Type.String(),
  target_id: Nullable(Type.Integer()),
  summary: Type.String(),
  details: Type.Unknown(),
});

export const listSchema = {
  summary: 'Audit log, newest first; page with `before` = the last id seen',
  querystring: Type.Object({ limit: Param(), before: Param() }),
  response: { 200: Type.Array(Entry), ...errors(401) },
};
