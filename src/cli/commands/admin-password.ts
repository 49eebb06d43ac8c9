import { changeAdminPassword, passwordFromEnvironment } from '../../auth/admin-password.ts';
import type { Config } from '../../config/config.ts';
import { ERRORS } from '../../errors.ts';
import { codePointLength } from '../../lib/input.ts';
import { LIMITS } from '../../shared/rules.ts';
import { type CommandArgs, none, UsageError, type Io } from '../args.ts';
import { cliAudit, withDb } from '../database.ts';
import { readPassword } from '../prompt.ts';

export async function run({ positionals }: CommandArgs, config: Config, io: Io): Promise<void> {
  none(positionals, 'admin-password', '; it reads the password');
  // The same refusal as PUT /api/auth/password: the environment's password wins at every start.
  if (passwordFromEnvironment(config)) {
    const by = config.adminPasswordHash ? 'ADMIN_PASSWORD_HASH' : 'ADMIN_PASSWORD';
    throw new Error(`${ERRORS.password_from_environment[1]} (${by}): remove it to keep a password here`);
  }
  const password = await readPassword('New administrator password: ');
  if (codePointLength(password) < LIMITS.adminPasswordMin) {
    throw new UsageError(`the password must have at least ${LIMITS.adminPasswordMin} characters`);
  }
  await withDb(config, (_db, database) =>
    changeAdminPassword(database, password, (trx) => cliAudit(trx, { action: 'auth.password', params: {} })),
  );
  io.line('Administrator password changed; every administrator session from the old password has ended.');
}
