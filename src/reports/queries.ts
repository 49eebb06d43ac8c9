import type { Db } from '../db/schema.ts';
import type { ReportReason } from '../shared/rules.ts';

/**
 * Opens a report unless this reporter has one open on this comment (a partial unique index
 * decides, so concurrent repeats count once). True when it is the comment's first open report.
 */
export async function openReport(
  db: Db,
  r: {
    comment_id: number;
    reporter: string;
    reporter_user_id: number | null;
    reason: ReportReason;
    note: string;
    created_at: string;
  },
): Promise<{ opened: boolean; first: boolean }> {
  const inserted = await db
    .insertInto('reports')
    .values(r)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return { opened: false, first: false };
  const others = await db
    .selectFrom('reports')
    .select('id')
    .where('comment_id', '=', r.comment_id)
    .where('closed_at', 'is', null)
    .where('id', '<>', inserted.id)
    .limit(1)
    .executeTakeFirst();
  return { opened: true, first: others === undefined };
}
