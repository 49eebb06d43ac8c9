import type { Mutation } from './list.ts';

/** Writes side by side on one row that another of them replaces or removes (PostgreSQL). */
const TESTS = ['test/races-rows.test.ts'];

export const RACE_MUTATIONS: Mutation[] = [
  {
    name: "races: two replacements of a streamer's schedule do not take turns",
    file: 'src/schedules/keep.ts',
    from: "    await lockRow(trx, 'streamers', id);\n",
    to: '',
    tests: TESTS,
    project: 'postgres',
  },
];
