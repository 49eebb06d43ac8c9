import type { Mutation } from './list.ts';

/** Fifth wave: "Schedules" (issue 43). */
const TESTS = ['test/schedules.test.ts'];

export const SCHEDULE_MUTATIONS: Mutation[] = [
  {
    name: 'schedules: 51 hand-kept segments accepted',
    file: 'src/schedules/rules.ts',
    from: 'input.length > SCHEDULE.maxSegments',
    to: 'input.length > SCHEDULE.maxSegments + 1',
    tests: TESTS,
  },
  {
    name: 'schedules: overlapping hand-kept segments accepted',
    file: 'src/schedules/rules.ts',
    from: 'if (s.from < previousEnd) return null;',
    to: '',
    tests: TESTS,
  },
  {
    name: 'schedules: a segment longer than 24 hours accepted',
    file: 'src/schedules/rules.ts',
    from: ' || to - from > SCHEDULE.maxHours * HOUR',
    to: '',
    tests: TESTS,
  },
  {
    name: 'schedules: a segment beyond 60 days accepted',
    file: 'src/schedules/rules.ts',
    from: ' || from > at + SCHEDULE.horizonDays * DAY',
    to: '',
    tests: TESTS,
  },
  {
    name: 'schedules: the title not cut to 140',
    file: 'src/schedules/rules.ts',
    from: "title: singleLine(title ?? '', SCHEDULE.titleMax),",
    to: "title: singleLine(title ?? '', 1000),",
    tests: TESTS,
  },
  {
    name: 'schedules: someone who does not speak for the streamer keeps its schedule',
    file: 'src/schedules/policy.ts',
    from: '(who.user !== null && speaksFor.includes(streamerId))',
    to: 'who.user !== null',
    tests: TESTS,
  },
  {
    name: 'schedules: a banned user keeps a schedule',
    file: 'src/schedules/keep.ts',
    from: "  if (viewer.bannedUser) throw fail('banned');\n",
    to: '',
    tests: TESTS,
  },
  {
    name: "schedules: a provider_a streamer's schedule kept by hand",
    file: 'src/schedules/keep.ts',
    from: "if (!keptByHand(streamer.platform)) throw fail('schedule_from_provider');",
    to: '',
    tests: TESTS,
  },
  {
    name: 'schedules: read from Twitch every round, not once an hour',
    file: 'src/sync/schedule-reads.ts',
    from: 'const dueBefore = now.getTime() - SCHEDULE.readEveryMs;',
    to: 'const dueBefore = now.getTime();',
    tests: TESTS,
  },
  {
    name: "schedules: Twitch's 404 taken for a failure, not for no schedule",
    file: 'src/sync/twitch-schedule.ts',
    from: 'err.status === 404',
    to: 'err.status === 410',
    tests: TESTS,
  },
  {
    name: 'schedules: only the first page of a Twitch schedule read',
    file: 'src/sync/twitch-schedule.ts',
    from: "if (after !== '') query.set('after', after);",
    to: '',
    tests: TESTS,
  },
  {
    name: 'schedules: a 429 does not stop the reads',
    file: 'src/sync/schedule-reads.ts',
    from: "if (err instanceof SyncError && err.kind === 'rate_limited') stopped = true;",
    to: 'if (err instanceof SyncError && err.kind === "nothing") stopped = true;',
    tests: TESTS,
  },
  {
    name: 'schedules: next_stream counts a canceled segment',
    file: 'src/schedules/queries.ts',
    from: "    .where('canceled', '=', 0)\n    .where('end_at', '>', from)\n    .groupBy('streamer_id')",
    to: "    .where('end_at', '>', from)\n    .groupBy('streamer_id')",
    tests: TESTS,
  },
  {
    name: 'schedules: kept answers do not expire with the clock',
    file: 'src/cache/answers.ts',
    from: 'return hit.expires === null || hit.expires > this.#now() ? hit : undefined;',
    to: 'return hit;',
    tests: TESTS,
  },
  {
    name: 'schedules: GET /api/schedule lists streamers outside the Public view',
    file: 'src/schedules/queries.ts',
    from: "    .where('schedule_segments.end_at', '>', from)\n    .where(IN_PUBLIC_VIEW);",
    to: "    .where('schedule_segments.end_at', '>', from);",
    tests: TESTS,
  },
  {
    name: 'schedules: the iCalendar UID changes with the title',
    file: 'src/schedules/rules.ts',
    from: "uid: uidOf('manual', streamerId, startIso),",
    to: "uid: uidOf('manual', streamerId, startIso, String(title)),",
    tests: TESTS,
  },
];
