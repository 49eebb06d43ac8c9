import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.ts';

/**
 * The audit log: every change an administrator or moderator makes, written in the same
 * transaction as the change itself.
 */
export type AuditAction =
  | 'streamer.add'
  | 'streamer.edit'
  | 'streamer.rate'
  | 'streamer.lock'
  | 'streamer.delete'
  | 'comment.delete'
  | 'team.create'
  | 'team.update'
  | 'team.delete'
  | 'member.add'
  | 'member.remove'
  | 'user.ban'
  | 'user.moderator'
  | 'settings.update';

export interface Actor {
  /** `cli` is the operator's command-line tool. */
  actor: 'admin' | 'user' | 'cli';
  actor_user_id: number | null;
}

/** Who is acting: the administrator when the session has the flag, else the signed-in user. */
export function actorOf(request: FastifyRequest): Actor {
  const { viewer } = request;
  if (viewer.isAdmin) return { actor: 'admin', actor_user_id: viewer.user?.id ?? null };
  return { actor: 'user', actor_user_id: viewer.user?.id ?? null };
}

export async function audit(
  db: Db,
  entry: Actor & {
    action: AuditAction;
    target_id?: number | null;
    summary: string;
    details?: unknown;
    at: string;
  },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: entry.at,
      actor: entry.actor,
      actor_user_id: entry.actor_user_id,
      action: entry.action,
      target_id: entry.target_id ?? null,
      summary: entry.summary.slice(0, 500),
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
    })
    .execute();
}

export async function listAudit(db: Db, limit: number, before?: number) {
  let q = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit);
  if (before !== undefined) q = q.where('id', '<', before);
  const rows = await q.execute();
  return rows.map((r) => ({ ...r, details: r.details === null ? null : (JSON.parse(r.details) as unknown) }));
}

/** Records an entry for this request's actor, at the app's clock time. */
export function record(
  db: Db,
  request: FastifyRequest,
  entry: { action: AuditAction; target_id?: number | null; summary: string; details?: unknown },
): Promise<void> {
  return audit(db, { ...actorOf(request), at: request.server.clock.now().toISOString(), ...entry });
}
