import { ConfigError } from './values.ts';

export interface BackupConfig {
  readonly dir: string;
  readonly everyHours: number;
  /** How many copies stay in `dir`; older ones are deleted after each new one. */
  readonly keep: number;
}

/**
 * BACKUP_DIR turns scheduled backups on; BACKUP_EVERY_HOURS and BACKUP_KEEP mean nothing
 * without it, so setting them alone is a mistake worth stopping for. The backups copy a
 * SQLite file: on PostgreSQL they are pg_dump's job (docs/decisions.md "Scheduled backups").
 */
export function backupConfig(
  get: (name: string) => string | undefined,
  databaseUrl: string,
): BackupConfig | null {
  const dir = get('BACKUP_DIR');
  const hours = get('BACKUP_EVERY_HOURS');
  const keep = get('BACKUP_KEEP');
  if (dir === undefined) {
    const orphan = hours !== undefined ? 'BACKUP_EVERY_HOURS' : keep !== undefined ? 'BACKUP_KEEP' : null;
    if (orphan) throw new ConfigError(orphan, 'needs BACKUP_DIR (the directory the backups go to)');
    return null;
  }
  if (databaseUrl.startsWith('postgres')) {
    throw new ConfigError(
      'BACKUP_DIR',
      'copies SQLite databases; on PostgreSQL back up with pg_dump (docs/deploy.md "Backups and restores") and leave BACKUP_DIR unset',
    );
  }
  if (databaseUrl === 'sqlite::memory:') {
    throw new ConfigError('BACKUP_DIR', 'has nothing to copy: DATABASE_URL is sqlite::memory:');
  }
  const everyHours = hours === undefined ? 24 : Number(hours);
  if (hours !== undefined && (!/^\d+(\.\d+)?$/.test(hours) || everyHours < 0.1 || everyHours > 8760)) {
    throw new ConfigError('BACKUP_EVERY_HOURS', 'must be a number of hours from 0.1 to 8760', hours);
  }
  const kept = keep === undefined ? 7 : Number(keep);
  if (keep !== undefined && (!/^\d+$/.test(keep) || kept < 1 || kept > 10_000)) {
    throw new ConfigError('BACKUP_KEEP', 'must be an integer from 1 to 10000', keep);
  }
  return Object.freeze({ dir, everyHours, keep: kept });
}
