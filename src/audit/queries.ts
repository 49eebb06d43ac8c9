import type { AuditLogTable, Db } from '../db/schema.ts';
import type { Selectable } from 'kysely';
import type { Viewer } from '../plugins/viewer.ts';

/**
 * The audit log: every change an administrator or moderator makes, written in the same
 * transaction as the change itself (pass the transaction as `db`).
 */
export type AuditAction =
  | 'streamer.add'
  | 'streamer.edit'
  | 'streamer.rate'
  | 'streamer.lock'
  | 'streamer.delete'
  | 'comment.delete'
  | 'comment.hide'
  | 'team.create'
  | 'team.update'
  | 'team.delete'
  | 'member.add'
  | 'member.remove'
  | 'user.ban'
  | 'user.moderator'
  | 'settings.update'
  | 'auth.password'
  | 'user.admin'
  | 'user.sessions'
  | 'comment.bulk'
  | 'block.add'
  | 'block.remove';

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

export interface AuditEntry {
  action: AuditAction;
  target_id?: number | null;
  summary: string;
  details?: unknown;
}

export async function audit(db: Db, actor: Actor, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      ...actor,
      action: entry.action,
      target_id: entry.target_id ?? null,
      summary: entry.summary.slice(0, 500),
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
    })
    .execute();
}

export type AuditRow = Omit<Selectable<AuditLogTable>, 'details'> & { details: unknown };

export async function listAudit(db: Db, limit: number, before?: number): Promise<AuditRow[]> {
  let q = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit);
  if (before !== undefined) q = q.where('id', '<', before);
  const rows = await q.execute();
  return rows.map((r) => ({ ...r, details: r.details === null ? null : (JSON.parse(r.details) as unknown) }));
}
