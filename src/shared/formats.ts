/**
 * Numbers, plural forms, relative times and dates in the page's two languages, written from
 * CLDR's rules and words: the same text as Intl's `cs-CZ` and `en-GB` formats in Node.js 20 and
 * 24 (test/formats.test.ts compares them value by value). The page's first view is rendered on
 * the server (web/src/ssr.ts), and a process that makes one Intl format keeps ICU's formatting
 * code and data resident for the rest of its life: 7-8 MiB (docs/benchmarks.md). The page
 * uses these in the browser too, so both sides write a number the same way; and a browser
 * makes its first date format slowly (ICU's data for the language: some 40 ms on a desktop,
 * four times that on a phone), so the page's dates written with numbers make none.
 */

export type Lang = 'cs' | 'en';
export type PluralCategory = 'one' | 'few' | 'many' | 'other';
export type TimeUnit = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

/** A language code as the page holds it: Czech, or else English (as Intl's locales were chosen). */
export const langOf = (lang: string): Lang => (lang === 'cs' ? 'cs' : 'en');

/** Each language's separators: Czech groups with a no-break space (U+00A0), as CLDR does. */
const SEPARATORS: Record<Lang, { group: string; decimal: string }> = {
  cs: { group: '\u00a0', decimal: ',' },
  en: { group: ',', decimal: '.' },
};

interface Digits {
  negative: boolean;
  int: string;
  frac: string;
}

/**
 * `n`'s digits rounded to at most `max` fraction digits, at least `min`. As ICU does, the
 * rounding works on the number's shortest decimal form (1.005 is 1.01 at two digits, where
 * `toFixed` gives 1.00): a tie goes away from zero (Intl's NumberFormat), or to the even digit
 * (`even`: ICU's own default, which its relative times keep). A negative zero keeps its sign.
 */
function digitsOf(n: number, min: number, max: number, even = false): Digits {
  const negative = n < 0 || Object.is(n, -0);
  const [mantissa = '0', exponent = '0'] = String(Math.abs(n)).split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  }
  const keep = point + max;
  if (keep < digits.length) {
    const next = digits.charCodeAt(keep) - 48;
    const tie = next === 5 && /^0*$/.test(digits.slice(keep + 1));
    const up = tie && even ? Number(digits[keep - 1]) % 2 === 1 : next >= 5;
    digits = digits.slice(0, keep);
    if (up) {
      let i = keep - 1;
      while (i >= 0 && digits[i] === '9') i--;
      digits =
        i < 0
          ? '1' + '0'.repeat(keep)
          : digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(keep - 1 - i);
      if (i < 0) point++;
    }
  }
  const int = digits
    .slice(0, point)
    .padEnd(point, '0')
    .replace(/^0+(?=\d)/, '');
  const frac = digits.slice(point).replace(/0+$/, '').padEnd(min, '0');
  return { negative, int, frac };
}

/** Digits as `lang` writes them: grouped by thousands from four, its decimal separator. */
function written(lang: Lang, { negative, int, frac }: Digits): string {
  const { group, decimal } = SEPARATORS[lang];
  const grouped = int.length < 4 ? int : int.replace(/\B(?=(\d{3})+$)/g, group);
  return (negative ? '-' : '') + grouped + (frac ? decimal + frac : '');
}

/** A number in `lang`, with at least `min` and at most `max` fraction digits (3, as Intl's default). */
export function writeNumber(lang: Lang, n: number, min = 0, max = Math.max(min, 3)): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n < 0 ? '-∞' : '∞';
  return written(lang, digitsOf(n, min, max));
}

/** CLDR's plural category of a number as written: from its integer digits and fraction digits shown. */
function categoryOf(lang: Lang, { int, frac }: Digits): PluralCategory {
  if (lang === 'en') return int === '1' && frac === '' ? 'one' : 'other';
  if (frac !== '') return 'many';
  if (int === '1') return 'one';
  return int === '2' || int === '3' || int === '4' ? 'few' : 'other';
}

/**
 * CLDR's plural category of `n`, shown with at most three fraction digits (as Intl's
 * PluralRules rounds): Czech 1 one, 2-4 few, a fraction many, the rest other; English 1 one,
 * the rest other.
 */
export function pluralCategory(lang: Lang, n: number): PluralCategory {
  return Number.isFinite(n) ? categoryOf(lang, digitsOf(Math.abs(n), 0, 3)) : 'other';
}

/** A unit's nouns by plural category (cs: one, few, many, other; en: one, other), and its words for near values. */
interface UnitWords {
  future: readonly string[];
  past: readonly string[];
  /** Values said in words instead of a number ("včera", "next year"), as Intl's `numeric: 'auto'`. */
  words: Readonly<Record<string, string>>;
}

type Style = 'long' | 'short';

const same = (nouns: readonly string[]) => ({ future: nouns, past: nouns });
const CS_DAY: UnitWords = {
  future: ['den', 'dny', 'dne', 'dní'],
  past: ['dnem', 'dny', 'dne', 'dny'],
  words: { '-2': 'předevčírem', '-1': 'včera', '0': 'dnes', '1': 'zítra', '2': 'pozítří' },
};
const CS_YEAR_WORDS = { '-1': 'minulý rok', '0': 'tento rok', '1': 'příští rok' };
const EN_DAY: UnitWords = {
  ...same(['day', 'days']),
  words: { '-1': 'yesterday', '0': 'today', '1': 'tomorrow' },
};
const near = (unit: string) => ({ '-1': `last ${unit}`, '0': `this ${unit}`, '1': `next ${unit}` });

/** CLDR's relative times (cs-CZ and en-GB) for the units the page uses. */
const UNITS: Record<Lang, Record<Style, Record<TimeUnit, UnitWords>>> = {
  cs: {
    long: {
      year: {
        future: ['rok', 'roky', 'roku', 'let'],
        past: ['rokem', 'lety', 'roku', 'lety'],
        words: CS_YEAR_WORDS,
      },
      month: {
        future: ['měsíc', 'měsíce', 'měsíce', 'měsíců'],
        past: ['měsícem', 'měsíci', 'měsíce', 'měsíci'],
        words: { '-1': 'minulý měsíc', '0': 'tento měsíc', '1': 'příští měsíc' },
      },
      day: CS_DAY,
      hour: {
        future: ['hodinu', 'hodiny', 'hodiny', 'hodin'],
        past: ['hodinou', 'hodinami', 'hodiny', 'hodinami'],
        words: { '0': 'tuto hodinu' },
      },
      minute: {
        future: ['minutu', 'minuty', 'minuty', 'minut'],
        past: ['minutou', 'minutami', 'minuty', 'minutami'],
        words: { '0': 'tuto minutu' },
      },
      second: {
        future: ['sekundu', 'sekundy', 'sekundy', 'sekund'],
        past: ['sekundou', 'sekundami', 'sekundy', 'sekundami'],
        words: { '0': 'nyní' },
      },
    },
    short: {
      year: { ...same(['r.', 'r.', 'r.', 'l.']), words: CS_YEAR_WORDS },
      month: { ...same(['měs.']), words: { '-1': 'minulý měs.', '0': 'tento měs.', '1': 'příští měs.' } },
      day: CS_DAY,
      hour: { ...same(['h']), words: { '0': 'tuto hodinu' } },
      minute: { ...same(['min']), words: { '0': 'tuto minutu' } },
      second: { ...same(['s']), words: { '0': 'nyní' } },
    },
  },
  en: {
    long: {
      year: { ...same(['year', 'years']), words: near('year') },
      month: { ...same(['month', 'months']), words: near('month') },
      day: EN_DAY,
      hour: { ...same(['hour', 'hours']), words: { '0': 'this hour' } },
      minute: { ...same(['minute', 'minutes']), words: { '0': 'this minute' } },
      second: { ...same(['second', 'seconds']), words: { '0': 'now' } },
    },
    short: {
      year: { ...same(['yr']), words: near('yr') },
      month: { ...same(['mo']), words: near('mo') },
      day: EN_DAY,
      hour: { ...same(['hr']), words: { '0': 'this hour' } },
      minute: { ...same(['min']), words: { '0': 'this minute' } },
      second: { ...same(['sec']), words: { '0': 'now' } },
    },
  },
};

const ORDER: Record<Lang, readonly PluralCategory[]> = {
  cs: ['one', 'few', 'many', 'other'],
  en: ['one', 'other'],
};

/**
 * Which near value (-2 to 2) `value` is said as, if any: as ICU, within 0.005 of it (its
 * hundredths rounded half away from zero).
 */
function nearValue(value: number): string {
  if (!(value > -2.1 && value < 2.1)) return '';
  const hundredths = Math.trunc(value < 0 ? value * 100 - 0.5 : value * 100 + 0.5);
  return hundredths % 100 === 0 ? String(hundredths / 100 + 0) : '';
}

/**
 * `value` units from now ("před 2 hodinami", "in 3 days"; negative is past), as Intl's
 * RelativeTimeFormat with `numeric: 'auto'` writes it: near values in words ("včera", "this hour").
 */
export function writeRelative(lang: Lang, value: number, unit: TimeUnit, style: Style = 'long'): string {
  const forms = UNITS[lang][style][unit];
  const word = forms.words[nearValue(value)];
  if (word !== undefined) return word;
  const past = value < 0 || Object.is(value, -0);
  const digits = digitsOf(Math.abs(value), 0, 3, true);
  const nouns = past ? forms.past : forms.future;
  const noun = nouns[Math.min(ORDER[lang].indexOf(categoryOf(lang, digits)), nouns.length - 1)];
  const n = written(lang, digits);
  if (lang === 'en') return past ? `${n} ${noun} ago` : `in ${n} ${noun}`;
  return past ? `před ${n} ${noun}` : `za ${n} ${noun}`;
}

/**
 * The ways the page writes a moment with numbers, in the visitor's time zone (the one a Date's
 * own getters read, as Intl's default): Intl's options for each in the comments.
 */
export type NumericDate = 'exact' | 'short' | 'day' | 'time' | 'clock';

/** en-GB's short month names (CLDR 38 on writes September "Sept"). */
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];
const twoDigits = (n: number): string => String(n).padStart(2, '0');

/** `date` as Intl's `cs-CZ` or `en-GB` format writes it; a date that is not one throws, as Intl does. */
export function writeDate(lang: Lang, date: Date, format: NumericDate): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid time value');
  const [year, month, day] = [date.getFullYear(), date.getMonth() + 1, date.getDate()];
  const [hour, minute] = [date.getHours(), twoDigits(date.getMinutes())];
  const cs = lang === 'cs';
  const time = cs ? `${hour}:${minute}` : `${twoDigits(hour)}:${minute}`;
  switch (format) {
    // { hour: '2-digit', minute: '2-digit' }: "09:05"
    case 'clock':
      return `${twoDigits(hour)}:${minute}`;
    // { timeStyle: 'short' }: "9:05", "09:05"
    case 'time':
      return time;
    // { year: 'numeric', month: 'numeric', day: 'numeric' }: "3. 12. 2026", "03/12/2026"
    case 'day':
      return cs ? `${day}. ${month}. ${year}` : `${twoDigits(day)}/${twoDigits(month)}/${year}`;
    // { dateStyle: 'short', timeStyle: 'short' }: "03.12.26 9:05", "03/12/2026, 09:05"
    case 'short':
      return cs
        ? `${twoDigits(day)}.${twoDigits(month)}.${twoDigits(year % 100)} ${time}`
        : `${twoDigits(day)}/${twoDigits(month)}/${year}, ${time}`;
    // { dateStyle: 'medium', timeStyle: 'short' }: "3. 12. 2026 9:05", "3 Dec 2026, 09:05"
    case 'exact':
      return cs ? `${day}. ${month}. ${year} ${time}` : `${day} ${EN_MONTHS[month - 1]} ${year}, ${time}`;
  }
}

/**
 * The letter an avatar without a picture shows: the name's first character, whole (an emoji
 * is two UTF-16 units; cutting it gave "�"), in capitals.
 */
export const initialOf = (name: string): string => (Array.from(name.trim())[0] ?? '').toUpperCase();
