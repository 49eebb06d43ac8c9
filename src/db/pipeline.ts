import type { CompiledQuery } from 'kysely';
import type { Db } from './schema.ts';

/**
 * PostgreSQL's pipelining (node-postgres's documented `pipeline: true`, db/connect.ts): a query
 * goes out without waiting for the answer to the one before it on the connection, and the
 * answers come back in order. Kysely sends a connection's queries one at a time; the group
 * commit (db/transaction.ts) sends a few of its own ahead, so that a group needs two round trips
 * where it needed four.
 */

/** The connection a Kysely bound to one (`db.connection().execute`) runs on: what it is given goes out at once. */
export const boundConnection = (conn: Db) => conn.getExecutor().provideConnection(async (bound) => bound);

/**
 * PostgreSQL: queries sent on the connection `conn` is bound to one after the other, without
 * waiting for each answer (node-postgres's pipelining, db/connect.ts): one round trip for all of
 * them. Each is still answered on its own, in order, and one that follows a failed one in the
 * transaction fails too. Resolves once every answer is in; rejects with the first failure.
 */
export async function pipelined(conn: Db, queries: CompiledQuery[]): Promise<void> {
  const connection = await boundConnection(conn);
  const answers = await Promise.allSettled(queries.map((query) => connection.executeQuery(query)));
  const failed = answers.find((answer) => answer.status === 'rejected');
  if (failed) throw failed.reason;
}
