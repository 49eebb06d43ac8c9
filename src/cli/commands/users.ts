import { personOf } from '../../audit/actions.ts';
import { ERRORS } from '../../errors.ts';
import type { Config } from '../../config/config.ts';
import { PROVIDERS, type Provider } from '../../shared/rules.ts';
import type { DbContext } from '../../db/context.ts';
import type { Db } from '../../db/schema.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { findUserByLogin, listUsers, setAdmin, setBanned, setModerator } from '../../users/queries.ts';
import { type CommandArgs, exactly, UsageError, type Io } from '../args.ts';
import { cliAudit, withDb } from '../database.ts';

/** Every action of `users`; its help in cli/command.ts names each (test/cli.test.ts). */
export const USER_ACTIONS = {
  ban: { banned: true },
  unban: { banned: false },
  mod: { is_mod: true },
  unmod: { is_mod: false },
  admin: { is_admin: true },
  unadmin: { is_admin: false },
} as const;
type UserAction = keyof typeof USER_ACTIONS;

const isAction = (action: string | undefined): action is UserAction =>
  action !== undefined && Object.hasOwn(USER_ACTIONS, action);
const isProvider = (provider: string | undefined): provider is Provider =>
  PROVIDERS.includes(provider as Provider);

export async function run({ positionals }: CommandArgs, config: Config, io: Io): Promise<void> {
  const [action, ...rest] = positionals;
  if (action === 'list') {
    if (rest.length > 1) throw new UsageError('users list takes at most one search text');
    await withDb(config, (db) => list(db, rest[0], io), { existing: true });
    return;
  }
  if (!isAction(action)) throw new UsageError(`unknown users action ${JSON.stringify(action ?? '')}`);
  const [provider, login] = exactly(rest, 'provider (provider_a or provider_b)', 'login');
  if (!isProvider(provider)) {
    throw new UsageError(
      `unknown provider ${JSON.stringify(provider)}: provider_a (Twitch) or provider_b (Kick)`,
    );
  }
  await withDb(config, (_db, database) => change(database, action, provider, login, io), {
    existing: true,
  });
}

async function list(db: Db, search: string | undefined, io: Io): Promise<void> {
  const users = await listUsers(db, { q: search });
  if (users.length === 0) return void io.line('No users.');
  // A header names the columns (issue 45, item 24); the roles column is empty for most.
  const row = (id: string, provider: string, login: string, name: string, seen: string, roles: string) =>
    `${id.padStart(5)}  ${provider.padEnd(10)}  ${login.padEnd(24)} ${name.padEnd(24)} ${seen.padEnd(24)}  ${roles}`.trimEnd();
  io.line(row('id', 'provider', 'login', 'name', 'last seen (UTC)', 'roles'));
  for (const u of users) {
    const roles = [u.banned && 'banned', u.is_mod && 'moderator', u.is_admin && 'administrator']
      .filter(Boolean)
      .join(',');
    io.line(row(String(u.id), u.provider, u.login, u.display_name, u.last_seen, roles));
  }
}

async function change(
  database: DbContext,
  action: UserAction,
  provider: Provider,
  login: string,
  io: Io,
): Promise<void> {
  const user = await findUserByLogin(database.db, provider, login.trim());
  if (!user) throw new Error(`User '${login}' on ${provider} has not signed in yet`);
  const change = USER_ACTIONS[action];
  const who = personOf(user);
  await writeTransaction(database, async (trx) => {
    if ('banned' in change) {
      await setBanned(trx, user.id, change.banned, new Date());
      await cliAudit(trx, {
        action: 'user.ban',
        params: { ...who, banned: change.banned },
        target_id: user.id,
      });
    } else if ('is_admin' in change) {
      if (change.is_admin && user.banned === 1) throw new Error(ERRORS.banned_user_admin[1]);
      await setAdmin(trx, user.id, change.is_admin);
      await cliAudit(trx, {
        action: 'user.admin',
        params: { ...who, admin: change.is_admin },
        target_id: user.id,
      });
    } else {
      await setModerator(trx, user.id, change.is_mod);
      await cliAudit(trx, {
        action: 'user.moderator',
        params: { ...who, moderator: change.is_mod },
        target_id: user.id,
      });
    }
  });
  io.line(`${action}: ${user.login} (${user.provider}, id ${user.id})`);
}
