import { type Actor, audit } from '../audit/queries.ts';
import type { AppContext, Logger } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import type { Keep } from '../idempotency/keep.ts';
import { writeFailure } from '../db/write-failure.ts';
import { nameLine, parseId } from '../lib/input.ts';
import { LIMITS } from '../shared/rules.ts';
import { streamerExists } from '../catalogue/exists.ts';
import { deleteGroup, findGroup, type GroupRow, insertGroup, updateGroup } from './queries.ts';
import type { GroupBody } from './schemas.ts';

/** The team operations of /api/rater_groups; routes.ts decides which one a request is. */

/** The app's context with who acts and the request's log. */
export interface TeamContext extends Pick<AppContext, 'database' | 'db'> {
  actor: Actor;
  log: Logger;
}

/** SPEC.md's conflicts, decided by the unique indexes (so concurrent requests get them too). */
const CONFLICTS = {
  name: 'group_name_exists',
  name_fold: 'group_name_exists',
  streamer_id: 'streamer_has_team',
} as const;

/** Group names: a stored name (lib/input.ts `nameLine`) of at most 100 characters. */
const groupName = (value: unknown) => nameLine(value, LIMITS.teamName);

/** A streamer to link: falsy stores null; otherwise it must exist (404). */
async function linkTarget(db: Db, value: unknown): Promise<number | null> {
  const id = parseId(value);
  if (id === null) return null;
  if (!(await streamerExists(db, id))) throw fail('streamer_not_found');
  return id;
}

export async function createTeam(
  { database, db, actor, log }: TeamContext,
  body: GroupBody,
  keep: Keep,
): Promise<GroupRow> {
  const name = groupName(body.name);
  if (name === '') throw fail('missing_name');
  const streamerId = await linkTarget(db, body.streamer_id);
  return writeTransaction(database, async (trx) => {
    const group = await insertGroup(trx, { name, streamer_id: streamerId, created_at: actor.at });
    await audit(trx, actor, {
      action: 'team.create',
      target_id: group.id,
      params: { team: name },
      details: { new: group },
    });
    return keep(trx, group);
  }).catch((err: unknown) => writeFailure(err, log, CONFLICTS));
}

export async function updateTeam(
  { database, db, actor, log }: TeamContext,
  id: number,
  body: GroupBody,
): Promise<void> {
  const changes: { name?: string; streamer_id?: number | null } = {};
  if ('name' in body) {
    changes.name = groupName(body.name);
    if (changes.name === '') throw fail('name_empty');
  }
  if (!('name' in body) && !('streamer_id' in body)) throw fail('nothing_to_update');
  const before = await findGroup(db, id);
  if (!before) throw fail('group_not_found');
  if ('streamer_id' in body) changes.streamer_id = await linkTarget(db, body.streamer_id);
  await writeTransaction(database, async (trx) => {
    await updateGroup(trx, id, changes);
    await audit(trx, actor, {
      action: 'team.update',
      target_id: id,
      params: { team: before.name },
      details: { old: before, new: { ...before, ...changes } },
    });
  }).catch((err: unknown) => writeFailure(err, log, CONFLICTS));
}

export async function deleteTeam({ database, actor }: TeamContext, id: number): Promise<void> {
  await writeTransaction(database, async (trx) => {
    const before = await findGroup(trx, id);
    if (!before || !(await deleteGroup(trx, id))) throw fail('group_not_found');
    await audit(trx, actor, {
      action: 'team.delete',
      target_id: id,
      params: { team: before.name },
      details: { old: before },
    });
  });
}
