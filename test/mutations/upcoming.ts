import type { Mutation } from './list.ts';

/** Issue 43 on the page: the Upcoming page, the next stream, the editor, the chat line; the stand-in and the demo. */
const PAGE = ['test/browser/web-upcoming.test.ts'];

export const UPCOMING_MUTATIONS: Mutation[] = [
  {
    name: "upcoming page: days grouped in UTC, not in the visitor's time zone",
    file: 'web/src/lib/schedule.ts',
    from: "day: '2-digit' });",
    to: "day: '2-digit', timeZone: 'UTC' });",
    tests: PAGE,
    web: true,
  },
  {
    name: 'upcoming page: live streamers not on top',
    file: 'web/src/components/Upcoming.svelte',
    from: ".filter((s) => s.status === 'live')",
    to: '.filter(() => false)',
    tests: PAGE,
    web: true,
  },
  {
    name: "next stream: shown in UTC, not in the visitor's time zone",
    file: 'web/src/lib/time.ts',
    from: "timeZoneName: 'short',",
    to: "timeZoneName: 'short', timeZone: 'UTC',",
    tests: PAGE,
    web: true,
  },
  {
    name: 'schedule editor: shown to someone who does not speak for the streamer',
    file: 'web/src/components/StreamerPage.svelte',
    from: 'mayKeepSchedule(who(), session.speaks_for ?? [], s.id)',
    to: 'true',
    tests: PAGE,
    web: true,
  },
  {
    name: "schedule editor: the service's refusal not shown",
    file: 'web/src/components/ScheduleEditor.svelte',
    from: '{#if saving.error}<p class="field-error" role="alert">{saving.error}</p>{/if}',
    to: '',
    tests: PAGE,
    web: true,
  },
  {
    name: "chat line: Nightbot's command fetches no address",
    file: 'web/src/lib/schedule.ts',
    from: '$(urlfetch ${url})',
    to: '$(urlfetch)',
    tests: PAGE,
    web: true,
  },
  {
    name: 'dev stand-in: a broadcaster without a schedule answered with segments',
    file: 'src/sync/dev-schedule.ts',
    from: '  if (h % 5 === 0) return null;\n',
    to: '',
    tests: ['test/live-sync-dev.test.ts'],
  },
  {
    name: "demo: the Kick streamers' schedules left empty",
    file: 'src/cli/demo.ts',
    from: "if (platform === 'provider_b' && sum > 0) await replaceManual",
    to: 'if (false) await replaceManual',
    tests: ['test/dev-demo-users.test.ts'],
  },
];
