import type { Mutation } from './list.ts';

/** What an operator's bad day found (helper h2, stop 98): starts, the tool and its files. */
export const OPERATOR_DAY_MUTATIONS: Mutation[] = [
  {
    name: 'a database a newer version migrated is said as Kysely\'s "corrupted migrations" again',
    file: 'src/db/migrator.ts',
    from: '  if (newer.length > 0) throw new NewerDatabaseError(newer);\n',
    to: '',
    tests: ['test/migration-newer.test.ts'],
  },
];
