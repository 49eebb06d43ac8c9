import { describe, expect, it } from 'vitest';
import { cs } from '../web/src/locales/cs.ts';
import type { MessageKey } from '../web/src/locales/en.ts';
import {
  initialOf,
  writeNumber,
  type Lang,
  type NumericDate,
  pluralCategory,
  writeDate,
  writeRelative,
  type TimeUnit,
} from '../src/shared/formats.ts';

/**
 * The page's numbers, plural forms and relative times (src/shared/formats.ts) are written by
 * hand so that the server's rendering of the first view loads none of ICU's formatters; they
 * must read exactly as Intl's cs-CZ and en-GB formats, value by value.
 */
const LOCALE: Record<Lang, string> = { cs: 'cs-CZ', en: 'en-GB' };
const LANGS: Lang[] = ['cs', 'en'];

/** A fixed spread of values: integers, fractions at every rounding edge, huge, tiny, signed zeros. */
function values(): number[] {
  const out = [
    0, -0, 0.5, 1.5, 2.5, 1.005, 2.345, 1.25, 0.05, -0.04, 0.0004, 0.0005, 9.95, 99.95, 999.95, 9999.5,
  ];
  out.push(
    1e21,
    1.5e21,
    123456789012,
    1e-7,
    5e-4,
    0.1 + 0.2,
    1 / 3,
    2 / 3,
    7.333333333,
    1.0001,
    1.0004,
    1.0005,
  );
  for (let i = -1100; i <= 1100; i++) out.push(i);
  for (const big of [9999, 10000, 12345, 99999, 100000, 999999, 1000000, 1234567]) out.push(big, -big);
  let seed = 7;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 48271) % 2147483647;
    const scale = 10 ** ((seed % 9) - 3);
    out.push(((seed % 200001) - 100000) * scale * 0.001, (seed % 1000) / 8);
  }
  return out;
}

const show = (n: number) => (Object.is(n, -0) ? '-0' : String(n));

describe('numbers as Intl writes them', () => {
  const all = [...values(), NaN, Infinity, -Infinity];
  for (const lang of LANGS) {
    it(`${lang}: counts, scores to one decimal, and up to two`, () => {
      const plain = new Intl.NumberFormat(LOCALE[lang]);
      const one = new Intl.NumberFormat(LOCALE[lang], { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      const two = new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 2 });
      for (const n of all) {
        expect(writeNumber(lang, n), show(n)).toBe(plain.format(n));
        expect(writeNumber(lang, n, 1, 1), show(n)).toBe(one.format(n));
        expect(writeNumber(lang, n, 0, 2), show(n)).toBe(two.format(n));
      }
    });

    it(`${lang}: plural categories`, () => {
      const rules = new Intl.PluralRules(LOCALE[lang]);
      for (const n of all) expect(pluralCategory(lang, n), show(n)).toBe(rules.select(n));
    });
  }

  it('Czech days by their count in the guest block asked first: 1 den, 3 dny, 7 dní (a browser walk)', () => {
    const asked = (n: number) =>
      cs[`moderation.confirmBlock.${pluralCategory('cs', n)}` as MessageKey].replace('{n}', String(n));
    expect([1, 3, 7].map((n) => asked(n).match(/aby (.*) nemohl/)?.[1])).toEqual(['1 den', '3 dny', '7 dní']);
  });
});

describe('relative times as Intl writes them (numeric: auto)', () => {
  const units: TimeUnit[] = ['year', 'month', 'day', 'hour', 'minute', 'second'];
  const near = values().filter((n) => Math.abs(n) < 1e6 && Math.abs(n) > 1e-6);
  for (const lang of LANGS)
    for (const style of ['long', 'short'] as const)
      it(`${lang}, ${style}`, () => {
        const format = new Intl.RelativeTimeFormat(LOCALE[lang], { numeric: 'auto', style });
        for (const unit of units)
          for (const n of [0, -0, ...near])
            expect(writeRelative(lang, n, unit, style), `${show(n)} ${unit}`).toBe(format.format(n, unit));
      });
});

describe('dates as Intl writes them, in the time zone the process is in', () => {
  const OPTIONS: Record<NumericDate, Intl.DateTimeFormatOptions> = {
    exact: { dateStyle: 'medium', timeStyle: 'short' },
    short: { dateStyle: 'short', timeStyle: 'short' },
    day: { year: 'numeric', month: 'numeric', day: 'numeric' },
    time: { timeStyle: 'short' },
    clock: { hour: '2-digit', minute: '2-digit' },
  };
  /** Moments from 1970 to 2100, every month, every hour and minute at some point, DST's edges included. */
  function moments(): Date[] {
    const out: Date[] = [];
    let seed = 11;
    for (let t = Date.UTC(1970, 0, 1); t < Date.UTC(2100, 0, 1); t += 86_400_000 * 7 + 3_600_000 + 60_000) {
      seed = (seed * 48271) % 2147483647;
      out.push(new Date(t + (seed % 86_400_000)));
    }
    for (const day of [Date.UTC(2026, 2, 29), Date.UTC(2026, 9, 25), Date.UTC(2026, 11, 31)])
      for (let m = 0; m < 24 * 60; m += 7) out.push(new Date(day - 3_600_000 * 6 + m * 60_000));
    return out;
  }
  const zone = process.env.TZ;
  for (const tz of ['UTC', 'Europe/Prague', 'America/St_Johns', 'Asia/Kolkata'])
    for (const lang of LANGS)
      it(`${lang}, ${tz}`, () => {
        process.env.TZ = tz;
        try {
          for (const [format, options] of Object.entries(OPTIONS) as [
            NumericDate,
            Intl.DateTimeFormatOptions,
          ][]) {
            const intl = new Intl.DateTimeFormat(LOCALE[lang], options);
            for (const d of moments())
              expect(writeDate(lang, d, format), `${format} ${d.toISOString()}`).toBe(intl.format(d));
          }
          expect(() => writeDate(lang, new Date('no date'), 'exact')).toThrow(RangeError);
        } finally {
          if (zone === undefined) delete process.env.TZ;
          else process.env.TZ = zone;
        }
      });
});

describe("an avatar's letter", () => {
  it('is the first character whole, an emoji or an accented letter included, in capitals', () => {
    expect(initialOf('😀 Eva')).toBe('😀');
    expect(initialOf('🤡')).toBe('🤡');
    expect(initialOf('čeněk')).toBe('Č');
    expect(initialOf('  eva')).toBe('E');
    expect(initialOf('')).toBe('');
  });
});
