import type { Mutation } from './list.ts';

/** Issue 30 "found in a community's week", items 14, 15, 19, 20, 21. */
export const WEEK_MUTATIONS: Mutation[] = [
  {
    name: 'week: long unbroken user text no longer wraps (the page scrolls sideways)',
    file: 'web/src/styles/base.css',
    from: '  overflow-wrap: break-word;\n',
    to: '',
    tests: ['test/browser/web-week.test.ts'],
    web: true,
  },
  {
    name: "week: the avatar's error handler back as an onerror attribute (an inline handler the policy refuses)",
    file: 'web/src/components/Avatar.svelte',
    from: '{@attach watch} />',
    to: 'onerror={() => (broken = true)} />',
    tests: ['test/browser/web-week.test.ts'],
    web: true,
  },
  {
    name: 'week: an onerror attribute again, seen in the first view HTML',
    file: 'web/src/components/Avatar.svelte',
    from: '{@attach watch} />',
    to: 'onerror={() => (broken = true)} />',
    tests: ['test/first-view-handlers.test.ts'],
    web: true,
  },
  {
    name: "week: the badge's embed box open for every visitor",
    file: 'web/src/components/BadgeShare.svelte',
    from: '<details class="card badge-share">',
    to: '<details class="card badge-share" open>',
    tests: ['test/browser/web-reach.test.ts'],
    web: true,
  },
  {
    name: 'week: scores on one scale round down',
    file: 'src/shared/rules.ts',
    from: 'Math.round((value * LIMITS.score * 10) / outOf + 1e-9) / 10',
    to: 'Math.floor((value * LIMITS.score * 10) / outOf) / 10',
    tests: ['test/score-scales.test.ts'],
  },
  {
    name: "week: the admin link's name again differs from its shown text on a phone",
    file: 'web/src/components/Header.svelte',
    from: "<a href={href.admin(firstTab)} aria-current={current('admin')}>",
    to: "<a href={href.admin(firstTab)} aria-current={current('admin')} aria-label={t('nav.admin')}>",
    tests: ['test/browser/web-week.test.ts'],
    web: true,
  },
  {
    name: 'week: account deletion asks "really?" before checking the typed login',
    file: 'web/src/components/Account.svelte',
    from: '    if (!mismatch && !deleting.busy) confirm?.open();',
    to: '    if (!deleting.busy) confirm?.open();',
    tests: ['test/browser/web-week.test.ts'],
    web: true,
  },
];
