import type { Mutation } from './list.ts';

/** The browser walk of stop h1: where a busy form or a view that gave way dropped the keyboard. */
export const KEYBOARD_WALK_MUTATIONS: Mutation[] = [
  {
    name: "busy keyboard: the streamer's Save the reply is disabled while it runs (the focus falls to the page's start)",
    file: 'web/src/components/StreamerVoice.svelte',
    from: '<button type="submit" disabled={over > 0} aria-disabled={saving.busy}>',
    to: '<button type="submit" disabled={saving.busy || over > 0}>',
    tests: ['test/browser/web-keyboard-walk.test.ts'],
    web: true,
  },
  {
    name: 'busy keyboard: Save the schedule is disabled while it runs',
    file: 'web/src/components/ScheduleEditor.svelte',
    from: '<button type="submit" aria-disabled={saving.busy}>',
    to: '<button type="submit" disabled={saving.busy}>',
    tests: ['test/browser/web-keyboard-walk.test.ts'],
    web: true,
  },
  {
    name: "busy keyboard: the staff's Save rating is disabled while it runs",
    file: 'web/src/components/RatingEditor.svelte',
    from: '<button type="submit" aria-disabled={saving.busy}>',
    to: '<button type="submit" disabled={saving.busy}>',
    tests: ['test/browser/web-keyboard-walk.test.ts'],
    web: true,
  },
  {
    name: 'busy keyboard: Send suggestion is disabled while it runs',
    file: 'web/src/components/SuggestForm.svelte',
    from: '<button type="submit" aria-disabled={suggestion.busy}>',
    to: '<button type="submit" disabled={suggestion.busy}>',
    tests: ['test/browser/web-keyboard-walk.test.ts'],
    web: true,
  },
  {
    name: 'queue keyboard: "Waiting: show" leaves the keyboard at the page\'s start',
    file: 'web/src/components/admin/ModerationAdmin.svelte',
    from: 'onclick={showWaiting}>',
    to: "onclick={() => setFilter('pending')}>",
    tests: ['test/browser/web-keyboard-walk.test.ts'],
    web: true,
  },
  {
    name: "review keyboard: a staff review's Review leaves the keyboard at the page's start, not on the form's heading",
    file: 'web/src/components/admin/ReviewsAdmin.svelte',
    from: "    await focusLost(() => document.querySelector<HTMLElement>('.review-form h2'));\n",
    to: '',
    tests: ['test/browser/web-keyboard-walk.test.ts'],
    web: true,
  },
  {
    name: 'team keyboard: a created team is not said',
    file: 'web/src/components/admin/TeamsAdmin.svelte',
    from: "      said = t('teams.created', { name: name.trim() });\n",
    to: '',
    tests: ['test/browser/web-keyboard-walk.test.ts'],
    web: true,
  },
  {
    name: "team keyboard: a deleted team leaves the keyboard at the page's start",
    file: 'web/src/components/admin/TeamsAdmin.svelte',
    from: '      await focusLost(() => saidLine);\n',
    to: '',
    tests: ['test/browser/web-keyboard-walk.test.ts'],
    web: true,
  },
];
