import type { AuditLogTable, Db } from '../db/schema.ts';
import type { Selectable } from 'kysely';
import type { Viewer } from '../plugins/viewer.ts';
import { type AuditAction, type AuditParams, describe } from './actions.ts';
import { nameOldEntries } from './named.ts';
import type { EntryAnswer } from './schemas.ts';

/**
 * The audit log: every change an administrator or moderator makes, written in the same
 * transaction as the change itself (pass the transaction as `db`). An entry is its action
 * and that action's parameters (audit/actions.ts); the English summary is made from them.
 */
export type { AuditAction };

/** Who acted and when. `cli` is the operator's command-line tool. */
export interface Actor {
  actor: 'admin' | 'user' | 'cli';
  actor_user_id: number | null;
  at: string;
}

/**
 * The administrator when the session has the flag from the shared password, else the signed-in
 * user (a moderator, or a personal administrator account: the entry names them).
 */
export function actorOf(viewer: Viewer, now: Date): Actor {
  return {
    actor: viewer.passwordAdmin ? 'admin' : 'user',
    actor_user_id: viewer.user?.id ?? null,
    at: now.toISOString(),
  };
}

export interface AuditEntry<A extends AuditAction> {
  action: A;
  params: AuditParams<A>;
  target_id?: number | null;
  details?: unknown;
}

export async function audit<A extends AuditAction>(
  db: Db,
  actor: Actor,
  entry: AuditEntry<A>,
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      ...actor,
      action: entry.action,
      target_id: entry.target_id ?? null,
      summary: describe(entry.action, entry.params).slice(0, 500),
      params: JSON.stringify(entry.params),
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
    })
    .execute();
}

const parsed = (json: string | null): unknown => (json === null ? null : (JSON.parse(json) as unknown));

/** An entry as answers show it; its parameters are those audit() wrote for its action. */
function answer({
  params,
  details,
  ...row
}: Selectable<AuditLogTable> & { actor_name: string | null }): EntryAnswer {
  const entry = { ...row, details: parsed(details) };
  return (params === null ? entry : { ...entry, params: parsed(params) }) as EntryAnswer;
}

export async function listAudit(db: Db, limit: number, before?: number): Promise<EntryAnswer[]> {
  // The acting user's name as it is now (an entry keeps the id; a deleted account's is gone).
  let q = db
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.actor_user_id')
    .selectAll('audit_log')
    .select('users.display_name as actor_name')
    .orderBy('audit_log.id', 'desc')
    .limit(limit);
  if (before !== undefined) q = q.where('audit_log.id', '<', before);
  const entries = (await q.execute()).map(answer);
  await nameOldEntries(db, entries);
  return entries;
}
