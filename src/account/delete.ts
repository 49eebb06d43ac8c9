import { sql } from 'kysely';
import { describe, isAuditAction } from '../audit/actions.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { foldName } from '../lib/names.ts';
import { notifyAuthorDeleted } from '../notifications/notify.ts';
import { DEFAULT_AUTHOR, foldCase } from '../shared/rules.ts';

type Account = { id: number; login: string; provider: string; display_name: string };

/**
 * DECISIONS.md "Your data": a user deletes their account, confirmed by typing their login. In
 * one transaction, with the events it causes (the comments it takes along leave the open pages).
 */
export async function deleteOwnAccount(
  ctx: AppContext,
  user: Account,
  confirm: string,
  deleteComments: boolean,
): Promise<void> {
  if (!(await confirmsOwnLogin(ctx.db, user, confirm))) throw fail('confirmation_mismatch');
  await writeTransaction(ctx.database, (trx) => deleteAccount(trx, user, deleteComments));
}

/**
 * Whether the confirmation typed before deleting an account names this user's login
 * (DECISIONS.md "Your data": compared folded). Folded as every name is (lib/names.ts), so
 * letter case, spaces and look-alike letters do not matter; but the skeleton can make two
 * different logins fold alike (`modern` and `rnodern`), so a confirmation that is, letter
 * for letter up to case, another user's login is refused even when it folds like this one's:
 * one user's login never confirms another's deletion.
 */
async function confirmsOwnLogin(
  db: Db,
  user: { id: number; login: string },
  typed: string,
): Promise<boolean> {
  if (foldName(typed) !== foldName(user.login)) return false;
  const key = foldCase(typed.trim());
  if (key === foldCase(user.login)) return true;
  const other = await db
    .selectFrom('users')
    .select('id')
    .where('login_key', '=', key)
    .where('id', '!=', user.id)
    .executeTakeFirst();
  return other === undefined;
}

/**
 * Deletes a user and everything tied to them (likes, votes, reports, memberships, community
 * ratings, notifications, follows, push subscriptions, e-mail settings, tokens and queued mail and
 * moderator record go with the user row by their foreign keys;
 * sessions here).
 * Their comments stay as guest comments by `Anonym`, or are deleted with `deleteComments`.
 * The audit log keeps what was done, not by or to whom.
 */
async function deleteAccount(db: Db, user: Account, deleteComments: boolean): Promise<void> {
  const userId = user.id;
  if (deleteComments) {
    // Gone from the open pages too, and from the counts of those notified about them.
    await notifyAuthorDeleted(db, userId);
    await db.deleteFrom('comments').where('user_id', '=', userId).execute();
  } else {
    await db
      .updateTable('comments')
      .set({ user_id: null, author: DEFAULT_AUTHOR, is_admin: 0 })
      .where('user_id', '=', userId)
      .execute();
  }
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await forgetInAuditLog(db, user);
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

/**
 * The audit log keeps the action, not the person: entries lose the user as actor and as
 * target, their login and display name in the parameters (an empty login reads "a deleted
 * user"; older team entries kept the login lower-cased, so it is compared folded) and, on
 * comment entries that copied their comment, the copy and the author's name. Summaries are
 * worded again from what remains.
 */
async function forgetInAuditLog(db: Db, user: Account): Promise<void> {
  const logins = [...new Set([user.login, foldCase(user.login)])].map((l) => JSON.stringify(l));
  const entries = await db
    .selectFrom('audit_log')
    .select(['id', 'action', 'actor_user_id', 'target_id', 'params', 'details'])
    .where((eb) =>
      eb.or([
        eb('actor_user_id', '=', user.id),
        eb('target_id', '=', user.id),
        ...logins.map((login) => eb('params', 'like', sql<string>`${`%${escapeLike(login)}%`} escape '\\'`)),
        eb('details', 'like', `%"user_id":${user.id},%`),
      ]),
    )
    .execute();
  for (const entry of entries) {
    const params = (entry.params === null ? null : JSON.parse(entry.params)) as Record<
      string,
      unknown
    > | null;
    const aboutUser = entry.action.startsWith('user.') && entry.target_id === user.id;
    const named =
      params !== null &&
      typeof params.login === 'string' &&
      foldCase(params.login) === foldCase(user.login) &&
      params.provider === user.provider;
    const copied = entry.action.startsWith('comment.') && entry.details?.includes(`"user_id":${user.id},`);
    if (named) {
      params.login = '';
      delete params.display_name;
    }
    if (copied && params?.author === user.display_name) params.author = '';
    await db
      .updateTable('audit_log')
      .set({
        actor_user_id: entry.actor_user_id === user.id ? null : entry.actor_user_id,
        target_id: aboutUser ? null : entry.target_id,
        details: aboutUser || copied ? null : entry.details,
        ...(params !== null && isAuditAction(entry.action)
          ? { params: JSON.stringify(params), summary: describe(entry.action, params as never) }
          : {}),
      })
      .where('id', '=', entry.id)
      .execute();
  }
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
