import { type Static, Type } from 'typebox';
import { errors, IdDoc, Input, Limit, Nullable, Param, StringEnum, Timestamp } from '../lib/schemas.ts';
import { AUDIT_ACTIONS, AUDIT_PARAMS, type AuditAction, type AuditParams } from './actions.ts';

const common = {
  id: Type.Integer(),
  at: Timestamp(),
  actor: StringEnum(['admin', 'user', 'cli']),
  actor_user_id: Nullable(Type.Integer()),
  actor_name: Nullable(
    Type.String({
      description:
        "The acting user's display name as it is now; null for the shared password, the command line or a deleted account",
    }),
  ),
  target_id: Nullable(Type.Integer()),
  /** The service's English words for the entry (audit/actions.ts `describe`). */
  summary: Type.String({ description: "The service's English words for the entry" }),
  details: Type.Unknown({ description: 'What changed (old and new values), when recorded' }),
};

/**
 * An entry: its action with that action's parameters (one member per action, so a client
 * reads `params` by `action`), or an entry written before parameters were recorded whose
 * summary could not be read back (no `params`: its summary is all there is).
 */
type Common = Static<ReturnType<typeof Type.Object<typeof common>>>;
export type EntryAnswer =
  | { [A in AuditAction]: Common & { action: A; params: AuditParams<A> } }[AuditAction]
  | (Common & { action: string; params?: undefined });

export const Entry = Type.Unsafe<EntryAnswer>(
  Type.Union(
    [
      ...AUDIT_ACTIONS.map((action) =>
        Type.Object({ ...common, action: StringEnum([action]), params: AUDIT_PARAMS[action] }),
      ),
      Type.Object(
        { ...common, action: Type.String() },
        { description: 'An old entry recorded without parameters' },
      ),
    ],
    { title: 'AuditEntry' },
  ),
);

export const listSchema = {
  summary: 'Audit log, newest first; page with `before` = the last id seen',
  querystring: Input({
    limit: Limit('Default 50'),
    before: Param(IdDoc('Entries with an id below this one')),
  }),
  response: { 200: Type.Array(Entry), ...errors(400, 401) },
};
