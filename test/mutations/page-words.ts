import type { Mutation } from './list.ts';

/**
 * What the page says in its own words: the browser's checks of a form's fields in the page's
 * language (web/src/lib/field-checks.ts), and why the audience ranking reads by name.
 */
export const PAGE_WORDS_MUTATIONS: Mutation[] = [
  {
    name: "field checks: the page never listens, so an empty suggestion's name is refused in the browser's language",
    file: 'web/src/main.ts',
    from: 'speakFieldChecks(document, { t, lang: () => i18n.lang });\n',
    to: '',
    tests: ['test/browser/web-community.test.ts'],
    web: true,
  },
  {
    name: 'field checks: a field refused by the browser is not marked aria-invalid',
    file: 'web/src/lib/field-checks.ts',
    from: "        field.setAttribute('aria-invalid', 'true');\n",
    to: '',
    tests: ['test/browser/web-community.test.ts'],
    web: true,
  },
  {
    name: "field checks: a chosen reason clears its own radio's message only (the report can no longer be sent)",
    file: 'web/src/lib/field-checks.ts',
    from: "  field instanceof HTMLInputElement && field.type === 'radio' && field.name",
    to: '  false',
    tests: ['test/browser/web-moderation.test.ts'],
    web: true,
  },
  {
    name: "field checks: a password's minlength is left to the browser's language",
    file: 'web/src/lib/field-checks.ts',
    from: "  'tooShort',\n",
    to: '',
    tests: ['test/field-checks.test.ts'],
    project: 'sqlite',
  },
  {
    name: 'audience sort: the ranking falls back to names where votes are missing and says nothing of it',
    file: 'web/src/lib/ranking.ts',
    from: '  if (without === 0) return null;\n',
    to: '  return null;\n',
    tests: ['test/browser/web-ranking.test.ts'],
    web: true,
  },
];
