import type { Config } from '../../config/config.ts';
import { writeTransaction } from '../../db/transaction.ts';
import { getSetting, setSetting } from '../../settings/queries.ts';
import { type CommandArgs, exactly, UsageError, type Io } from '../args.ts';
import { cliAudit, withDb } from '../database.ts';

function parseBool(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`expected true or false, got ${JSON.stringify(value)}`);
}

/** The setting named, after the action (get, set): the arguments the action takes. */
const SETTING = 'setting (auth_enabled)';

function known(key: string): void {
  if (key !== 'auth_enabled') throw new UsageError('the only setting is auth_enabled');
}

export async function run({ positionals }: CommandArgs, config: Config, io: Io): Promise<void> {
  const [action, ...rest] = positionals;
  if (action === 'get') {
    known(exactly(rest, SETTING)[0]);
    const stored = await withDb(config, (db) => getSetting(db, 'auth_enabled'), { existing: true });
    io.line(stored === 'true' ? 'true' : 'false');
    return;
  }
  if (action === 'set') {
    const [key, value] = exactly(rest, SETTING, 'value (true or false)');
    known(key);
    const on = parseBool(value);
    await withDb(
      config,
      (_db, database) =>
        writeTransaction(database, async (trx) => {
          await setSetting(trx, 'auth_enabled', on ? 'true' : 'false');
          await cliAudit(trx, { action: 'settings.update', params: { key: 'auth_enabled', value: on } });
        }),
      { existing: true },
    );
    io.line(`auth_enabled = ${on}`);
    return;
  }
  throw new UsageError('use `settings get auth_enabled` or `settings set auth_enabled true|false`');
}
