import type { Kysely } from 'kysely';
import { legacyParams } from './legacy-audit.ts';

/**
 * Audit entries carry their parameters as data (JSON), so that each side words them in its
 * own language (audit/actions.ts). Entries written before are given theirs, read back from
 * their English summaries.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('params', 'text').execute();
  const rows = (await db
    .selectFrom('audit_log')
    .select(['id', 'action', 'summary', 'details'])
    .execute()) as {
    id: number;
    action: string;
    summary: string;
    details: string | null;
  }[];
  for (const row of rows) {
    const params = legacyParams(row.action, row.summary, row.details);
    if (params !== null) await db.updateTable('audit_log').set({ params }).where('id', '=', row.id).execute();
  }
}
