import { sql } from 'kysely';
import { isSqlite } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';
import {
  askedTable,
  type AskedRow,
  errorsOf,
  type Extra,
  refusedByRows,
  type SqlRule,
  type ValueType,
} from '../db/sql-rules.ts';
import type { ErrorCode } from '../errors.ts';
import { asksHold, HOLD_RULES, holds } from './hold.ts';
import { insertComment, type NewComment } from './queries.ts';
import { appliesTo, COMMENT_VALUES, type CommentValue, DB_RULES, type Draft } from './rules.ts';

/** A comment accepted, as it is stored. */
export type Accepted = NewComment & {
  streamer_id: number;
  created_at: string;
  body: string;
  user_id: number | null;
  repeat_key: string;
};

/** Every rule a post asks the database and whether it waits for staff (hold.ts), with the posts that ask each. */
export const ASKED = new Map<AskedRule, (d: Draft) => boolean>([
  ...DB_RULES.map((rule) => [rule, (d: Draft) => appliesTo(rule, d)] as const),
  ...HOLD_RULES.map((rule) => [rule, (d: Draft) => asksHold(rule, d)] as const),
]);
const ASKED_RULES = [...ASKED.keys()];

/** A rule the statement of a round asks, and whether it holds a post rather than refusing it. */
type AskedRule = SqlRule<CommentValue, ErrorCode | Held>;
type Held = 'held' | 'held_words';

/** What the statement of a round answers: each post's errors, and the id of each one it stored. */
interface Asked {
  refused: Set<ErrorCode | Held>[];
  stored: ({ id: number; pending: number } | null)[];
}

/** The columns of a stored comment, in the order of the insert. */
const STORED = {
  streamer_id: 'integer',
  user_id: 'integer',
  author: 'text',
  body: 'text',
  is_admin: 'integer',
  created_at: 'text',
  guest_tag: 'text',
  reply_to: 'integer',
  repeat_key: 'text',
  pending: 'integer',
} satisfies Partial<Record<keyof Accepted, ValueType>>;
const STORED_COLUMNS = Object.keys(STORED) as (keyof typeof STORED)[];

/**
 * Asks every post's rules and stores each ready comment (`ready`: every check that asks no rule
 * passed) that no rule refuses, held when a hold rule holds it (hold.ts). PostgreSQL: one
 * statement, the rules over the posts' values and an insert of what they let through (one round
 * trip where there were two); the ids of what it stored come once, in the first row (in every
 * row, a group of n posts had n² ids to parse). SQLite, in process: the rules' query, then the
 * inserts.
 */
export async function askAndStore(
  trx: Db,
  rows: readonly AskedRow<CommentValue, ErrorCode | Held>[],
  ready: readonly (Accepted | null)[],
): Promise<Asked> {
  const storable = (k: number, refused: ReadonlySet<string>) =>
    ready[k] != null && ![...refused].some((error) => !holds(error));
  if (isSqlite(trx)) {
    const refused = await refusedByRows(trx, ASKED_RULES, COMMENT_VALUES, rows);
    const stored: Asked['stored'] = [];
    for (const [k, comment] of ready.entries()) {
      const errors = refused[k] ?? new Set();
      if (!comment || !storable(k, errors)) stored.push(null);
      else {
        const pending = comment.pending === 1 || [...errors].some(holds) ? 1 : 0;
        stored.push({ id: await insertComment(trx, { ...comment, pending }), pending });
      }
    }
    return { refused, stored };
  }
  const extra: Extra = { s: { type: 'integer', values: ready.map((c) => (c ? 1 : 0)) } };
  for (const column of STORED_COLUMNS) {
    extra[`c_${column}`] = { type: STORED[column], values: ready.map((c) => c?.[column]) };
  }
  const { asking, values, refused } = askedTable(ASKED_RULES, COMMENT_VALUES, rows, extra, true);
  const r = (i: number) => sql.ref(`r.r${i}`);
  const refusing = asking.flatMap((rule, i) => (holds(rule.error) ? [] : [sql` and ${r(i)} = 0`]));
  const holding = asking.flatMap((rule, i) => (holds(rule.error) ? [sql` or ${r(i)} = 1`] : []));
  const { rows: found } = await sql<Record<string, unknown>>`with ${values},
    r as (select ${sql.join([sql`v.*`, ...refused])} from v),
    stored as (insert into comments (${sql.join(STORED_COLUMNS.map((c) => sql.id(c)))})
      select ${sql.join(STORED_COLUMNS.filter((c) => c !== 'pending').map((c) => sql.ref(`r.c_${c}`)))},
        case when ${sql.ref('r.c_pending')} = 1${sql.join(holding, sql``)} then 1 else 0 end
      from r where ${sql.ref('r.s')} = 1${sql.join(refusing, sql``)}
      order by ${sql.ref('r.n')} returning id, pending)
    select ${sql.join([sql.ref('r.n'), ...asking.map((_, i) => r(i))])},
      case when ${sql.ref('r.n')} = 0 then (select array_agg(id order by id) from stored) end as ids,
      case when ${sql.ref('r.n')} = 0 then (select array_agg(pending order by id) from stored) end as pendings
    from r order by ${sql.ref('r.n')}`.execute(trx);
  const refusedRows = rows.map((_, k) => errorsOf(asking, found[k] ?? {}));
  const ids = (found[0]?.ids as number[] | null) ?? [];
  const pendings = (found[0]?.pendings as number[] | null) ?? [];
  // Ids are drawn in the order of the rows, so the stored rows take them in order.
  let next = 0;
  const stored = ready.map((_, k) => {
    if (!storable(k, refusedRows[k] ?? new Set())) return null;
    const id = ids[next];
    const pending = pendings[next++];
    if (id === undefined || pending === undefined) throw new Error('a comment of the group got no id');
    return { id: Number(id), pending: Number(pending) };
  });
  if (next !== ids.length) throw new Error('the group stored comments it did not expect');
  return { refused: refusedRows, stored };
}
