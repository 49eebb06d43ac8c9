import { storeAdminHash } from '../../auth/admin-password.ts';
import { hashPassword } from '../../auth/passwords.ts';
import type { Config } from '../../config.ts';
import { type CommandArgs, UsageError } from '../command.ts';
import { withDb } from '../database.ts';
import { readPassword } from '../prompt.ts';

export async function run({ positionals }: CommandArgs, config: Config): Promise<void> {
  if (positionals.length) throw new UsageError('admin-password takes no arguments; it reads the password');
  const password = await readPassword('New administrator password: ');
  if (password.length < 8) throw new UsageError('the password must have at least 8 characters');
  await withDb(config, async (db) => storeAdminHash(db, await hashPassword(password)));
  console.log('Administrator password changed.');
  if (config.adminPasswordHash || config.adminPassword) {
    console.log('Note: ADMIN_PASSWORD_HASH or ADMIN_PASSWORD is set and takes precedence over it.');
  }
}
