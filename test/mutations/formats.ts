import type { Mutation } from './list.ts';

/** The page's numbers, plural forms and relative times, written without ICU (src/shared/formats.ts), and its words: English loaded when chosen. */
const T = ['test/formats.test.ts'];
const F = 'src/shared/formats.ts';

export const FORMAT_MUTATIONS: Mutation[] = [
  {
    name: 'formats: Czech groups thousands with a plain space, not a no-break one',
    file: F,
    from: "cs: { group: '\\u00a0', decimal: ',' },",
    to: "cs: { group: ' ', decimal: ',' },",
    tests: T,
  },
  {
    name: 'formats: a tie rounds down (1.25 to one decimal is 1.2)',
    file: F,
    from: ': next >= 5;',
    to: ': next > 5;',
    tests: T,
  },
  {
    name: "formats: relative times round a tie away from zero, not to ICU's even digit",
    file: F,
    from: 'const up = tie && even ?',
    to: 'const up = tie && false ?',
    tests: T,
  },
  {
    name: 'formats: numbers are rounded on their binary value (toFixed), not their shortest decimal form',
    file: F,
    from: "const [mantissa = '0', exponent = '0'] = String(Math.abs(n)).split('e');",
    to: "const [mantissa = '0', exponent = '0'] = Math.abs(n).toFixed(Math.min(max, 100)).split('e');",
    tests: T,
  },
  {
    name: 'formats: four is not "few" in Czech (4 hodin)',
    file: F,
    from: "int === '2' || int === '3' || int === '4'",
    to: "int === '2' || int === '3'",
    tests: T,
  },
  {
    name: 'formats: a Czech fraction takes the "other" form (1,5 let)',
    file: F,
    from: "  if (frac !== '') return 'many';\n",
    to: '',
    tests: T,
  },
  {
    name: 'formats: only an exact -2 to 2 is said in words (ICU takes them to within 0.005)',
    file: F,
    from: 'Math.trunc(value < 0 ? value * 100 - 0.5 : value * 100 + 0.5)',
    to: 'value * 100',
    tests: T,
  },
  {
    name: 'formats: the day after tomorrow is "za 2 dny", not "pozítří"',
    file: F,
    from: ", '2': 'pozítří' },",
    to: ' },',
    tests: T,
  },
  {
    name: "formats: the Czech collator is made when its module loads (the server's rendering loads ICU)",
    file: 'web/src/lib/collate.ts',
    from: 'let collator: Intl.Collator | undefined;',
    to: "let collator: Intl.Collator | undefined = new Intl.Collator('cs');",
    tests: ['test/lazy-modules.test.ts'],
    web: true,
  },
  {
    name: "formats: the page's counts use Intl's plural rules (the server's rendering loads ICU)",
    file: 'web/src/lib/i18n.svelte.ts',
    from: '  const category = pluralCategory(i18n.lang, n);',
    to: "  const category = new Intl.PluralRules(i18n.lang === 'cs' ? 'cs-CZ' : 'en-GB').select(n);",
    tests: ['test/lazy-modules.test.ts'],
    web: true,
  },
  {
    name: "page words: English's words are fetched for every visitor, Czech ones too",
    file: 'web/src/main.ts',
    from: 'void loadWords(i18n.lang)',
    to: "void loadWords('en')",
    tests: ['test/browser/web-firstview.test.ts'],
    web: true,
  },
  {
    name: 'page words: the language switches before its words are loaded (the page stays Czech)',
    file: 'web/src/lib/i18n.svelte.ts',
    from: '  await loadWords(lang);\n  i18n.lang = lang;',
    to: '  void loadWords(lang);\n  i18n.lang = lang;',
    tests: ['test/browser/web-firstview.test.ts'],
    web: true,
  },
  {
    name: 'page dates: a date formatter is made for every date written, not once per format',
    file: 'web/src/lib/time.ts',
    from: '  if (!formatter)\n    formatters.set(key,',
    to: '  if (formatter || !formatter)\n    formatters.set(key,',
    tests: ['test/browser/web-taking-part.test.ts'],
    web: true,
  },
  {
    name: "page dates: the rating history's table is made before it is opened",
    file: 'web/src/components/Folded.svelte',
    from: '{#if opened}{@render children()}{/if}',
    to: '{@render children()}',
    tests: ['test/browser/web-taking-part.test.ts'],
    web: true,
  },
];
