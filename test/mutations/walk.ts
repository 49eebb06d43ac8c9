import type { Mutation } from './list.ts';

/** The browser walks of stops 65 and 69 (docs/decisions.md "Links to a comment"): what a week of use found. */
export const WALK_MUTATIONS: Mutation[] = [
  {
    name: 'walk: a link inside the page drops its #c<id> (the bell opens the page at its top)',
    file: 'web/src/lib/router.svelte.ts',
    from: '  navigate(url.pathname + url.search + url.hash);',
    to: '  navigate(url.pathname + url.search);',
    tests: ['test/browser/web-live.test.ts'],
    web: true,
  },
  {
    name: "walk: the streamer page's named address drops the fragment",
    file: 'web/src/components/StreamerPage.svelte',
    from: "history.replaceState(null, '', path + location.search + location.hash);",
    to: "history.replaceState(null, '', path);",
    tests: ['test/browser/web-comments.test.ts'],
    web: true,
  },
  {
    name: 'walk: a linked comment past the first page is not looked for',
    file: 'web/src/lib/linked.ts',
    from: 'page < LINK_PAGES; page++)',
    to: 'page < 0; page++)',
    tests: ['test/browser/web-comments.test.ts'],
    web: true,
  },
  {
    name: 'walk: the linked comment is scrolled to but not focused (nothing marks it, nothing reads it out)',
    file: 'web/src/lib/linked.ts',
    from: '  comment.focus({ preventScroll: true });',
    to: '',
    tests: ['test/browser/web-live.test.ts'],
    web: true,
  },
  {
    name: "walk: Upcoming marks every slot of a live streamer, tomorrow's too",
    file: 'web/src/components/Upcoming.svelte',
    from: 'liveIds.has(s.streamer_id) && Date.parse(s.start) <= now && now < Date.parse(s.end);',
    to: 'liveIds.has(s.streamer_id);',
    tests: ['test/browser/web-upcoming.test.ts'],
    web: true,
  },
  {
    name: "walk: a team member's untouched form saves seven zeros",
    file: 'web/src/components/CommunityPanel.svelte',
    from: '({ s: null, g: null, a: null, v: null, n: null, ns: null, o: null });',
    to: '({ s: 0, g: 0, a: 0, v: 0, n: 0, ns: 0, o: 0 });',
    tests: ['test/browser/web-community.test.ts'],
    web: true,
  },
  {
    name: "walk: a moderator's Administration link opens Streamers, which they may not use",
    file: 'web/src/components/Header.svelte',
    from: "<a href={href.admin(firstTab)} aria-current={current('admin')}>",
    to: "<a href={href.admin()} aria-current={current('admin')}>",
    tests: ['test/browser/web-week-phone.test.ts'],
    web: true,
  },
  {
    name: 'walk: the next stream\'s date in English by numbers again ("03/12")',
    file: 'web/src/lib/schedule.ts',
    from: "    month: 'short',\n    hour: '2-digit',",
    to: "    month: 'numeric',\n    hour: '2-digit',",
    tests: ['test/browser/web-upcoming.test.ts'],
    web: true,
  },
  // Stop 69's walk.
  {
    name: "walk: the audit tab titles an entry with its action's key (streamer.rate)",
    file: 'web/src/lib/audit-text.ts',
    from: '  return (TITLES[i18n.lang] as Record<string, string>)[entry.action] ?? entry.action;',
    to: '  return entry.action;',
    tests: ['test/browser/web-community.test.ts'],
    web: true,
  },
];
