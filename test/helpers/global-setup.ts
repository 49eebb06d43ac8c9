import type { TestProject } from 'vitest/node';
import { dropWorkerDatabases, makeSqliteTemplate, removeLeftovers } from './database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A SQLite file with every migration applied, copied for each app (database.ts). */
    sqliteTemplate: string;
  }
}

/**
 * Once per run and project: the migrated SQLite file the tests' apps start from, removed at
 * the end, as are the PostgreSQL workers' databases (database.ts useWorkerDatabase). What an
 * earlier run killed before its cleanups left of its SQLite files goes first.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  removeLeftovers();
  const template = await makeSqliteTemplate();
  project.provide('sqliteTemplate', template.file);
  return async () => {
    template.remove();
    const base = process.env.TEST_DATABASE_URL;
    if (project.name === 'postgres' && base) await dropWorkerDatabases(base);
  };
}
