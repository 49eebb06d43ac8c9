import type { TestProject } from 'vitest/node';
import { dropWorkerDatabases, makePgTemplate, makeSqliteTemplate } from './database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A SQLite file with every migration applied, copied for each app (database.ts). */
    sqliteTemplate: string;
    /** PostgreSQL: a database with every migration applied, copied for each app; '' on SQLite. */
    pgTemplate: string;
  }
}

/**
 * Once per run and project: the migrated database the tests' apps start from (a SQLite file,
 * and on the PostgreSQL project a PostgreSQL database), removed at the end with every copy of
 * it, as are the PostgreSQL workers' databases (database.ts useWorkerDatabase).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await makeSqliteTemplate();
  project.provide('sqliteTemplate', template.file);
  const base = process.env.TEST_DATABASE_URL;
  const pgTemplate = project.name === 'postgres' && base ? await makePgTemplate(base) : undefined;
  project.provide('pgTemplate', pgTemplate?.name ?? '');
  return async () => {
    template.remove();
    if (pgTemplate) await pgTemplate.remove();
    if (project.name === 'postgres' && base) await dropWorkerDatabases(base);
  };
}
