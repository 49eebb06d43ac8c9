import type { TestProject } from 'vitest/node';
import { makeSqliteTemplate } from './database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A SQLite file with every migration applied, copied for each app (database.ts). */
    sqliteTemplate: string;
  }
}

/** Once per run: the migrated SQLite file the tests' apps start from; removed at the end. */
export default async function setup(project: TestProject): Promise<() => void> {
  const template = await makeSqliteTemplate();
  project.provide('sqliteTemplate', template.file);
  return template.remove;
}
