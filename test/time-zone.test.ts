import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/config.ts';
import { loadZone, posixOffset, systemZone, zoneOffset } from '../src/lib/time-zone.ts';
import { digestSlot } from '../src/mail/schedule.ts';
import { WORDS } from '../src/mail/words.ts';

/**
 * The service's time zone comes from the system's time zone database (lib/time-zone.ts), not
 * from Intl's formatters (they cost the process 8 MiB). Here Intl is the yardstick: both read
 * the same zones, so they agree at every change of offset. The zones' rules chosen have not
 * changed for years, so an ICU and a system database of different versions agree on them.
 */
const ZONES = [
  'Europe/Prague', // the changes written in the file up to 2037, then its footer's rule
  'America/New_York',
  'Australia/Sydney', // southern: daylight saving spans the new year
  'Pacific/Auckland',
  'Australia/Lord_Howe', // half an hour's daylight saving
  'Pacific/Chatham', // +12:45
  'America/St_Johns', // -03:30
  'Europe/Dublin', // winter is the "daylight saving" time, with a negative saving
  'Antarctica/Troll', // two hours' saving
  'Asia/Kolkata',
  'America/Sao_Paulo', // daylight saving ended in 2019: the rule then is a fixed offset
  'America/Nuuk', // its rule changes at -01:00 and 00:00 local time
  'Asia/Jerusalem', // its rule changes at "26:00" on a Thursday
  'UTC',
  'Etc/GMT+5',
];

const formats = new Map<string, Intl.DateTimeFormat>();
function intlOffset(zone: string, ms: number): number {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      ...Object.fromEntries(['year', 'month', 'day', 'hour', 'minute', 'second'].map((k) => [k, 'numeric'])),
    });
    formats.set(zone, format);
  }
  const p = Object.fromEntries(format.formatToParts(new Date(ms)).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day, p.hour, p.minute, p.second) - Math.floor(ms / 1000) * 1000;
}

const DAY_MS = 24 * 3600 * 1000;

describe('the time zone database', () => {
  it.each(ZONES)('%s: the offset agrees with Intl on both sides of every change, 2000-2060', (zone) => {
    // Before the first change, the zone's first time type (its local mean time).
    expect(zoneOffset(zone, Date.UTC(1850, 0, 1))).toBe(intlOffset(zone, Date.UTC(1850, 0, 1)));
    let changes = 0;
    for (let t = Date.UTC(2000, 0, 1); t < Date.UTC(2060, 0, 1); t += DAY_MS) {
      const before = zoneOffset(zone, t);
      expect(before, new Date(t).toISOString()).toBe(intlOffset(zone, t));
      if (zoneOffset(zone, t + DAY_MS) === before) continue;
      let lo = t;
      let hi = t + DAY_MS;
      while (hi - lo > 1000) {
        const mid = Math.floor((lo + hi) / 2000) * 1000;
        if (zoneOffset(zone, mid) === before) lo = mid;
        else hi = mid;
      }
      changes++;
      for (const at of [hi - 1000, hi])
        expect(zoneOffset(zone, at), new Date(at).toISOString()).toBe(intlOffset(zone, at));
    }
    if (zone === 'Europe/Prague') expect(changes).toBe(120);
  });

  it('POSIX rules: days as Jn (no February 29), n (from 0) and Mm.w.d; no dates: the US rules', () => {
    const at = (tz: string, iso: string) => posixOffset(tz, Date.parse(iso)) / 3_600_000;
    // J60 is March 1, also in a leap year; 59 is February 29 in one.
    expect(at('AAA3BBB,J60/2,J300/2', '2024-03-01T04:59:59Z')).toBe(-3);
    expect(at('AAA3BBB,J60/2,J300/2', '2024-03-01T05:00:00Z')).toBe(-2);
    expect(at('AAA3BBB,59/2,300/2', '2024-02-29T04:59:59Z')).toBe(-3);
    expect(at('AAA3BBB,59/2,300/2', '2024-02-29T05:00:00Z')).toBe(-2);
    // J300 is October 27; the change back is written in daylight time.
    expect(at('AAA3BBB,J60/2,J300/2', '2024-10-27T03:59:59Z')).toBe(-2);
    expect(at('AAA3BBB,J60/2,J300/2', '2024-10-27T04:00:00Z')).toBe(-3);
    expect(at('EST5EDT', '2026-03-08T06:59:59Z')).toBe(-5);
    expect(at('EST5EDT', '2026-03-08T07:00:00Z')).toBe(-4);
    expect(at('<+0545>-5:45', '2026-06-01T00:00:00Z')).toBe(5.75);
    expect(() => posixOffset('CET-1CEST,M3.5.0', 0)).toThrow(/not a POSIX TZ string/);
  });

  it('reads only zones: no path out of the database, no file that is not one', () => {
    expect(loadZone('Europe/Prague')).toBe(true);
    for (const name of [
      'Mars/Olympus',
      '../zoneinfo/Europe/Prague',
      '/usr/share/zoneinfo/UTC',
      'zone.tab',
      '',
      'Europe',
    ]) {
      expect(loadZone(name), name).toBe(false);
    }
    expect(() => zoneOffset('Mars/Olympus', 0)).toThrow(/unknown time zone/);
    expect(loadZone(systemZone())).toBe(true);
  });

  it('TZ names a zone of the database; unset, the system’s', () => {
    const mail = { SMTP_URL: 'smtp://127.0.0.1', MAIL_FROM: 'a@example.org' };
    expect(parseConfig({ ...mail, TZ: ':America/New_York' }).mail?.timeZone).toBe('America/New_York');
    expect(parseConfig(mail).mail?.timeZone).toBe(systemZone());
    for (const tz of ['../zoneinfo/UTC', 'CET-1CEST,M3.5.0,M10.5.0/3', 'europe/prague']) {
      expect(() => parseConfig({ ...mail, TZ: tz }), tz).toThrow(/TZ must be a time zone/);
    }
  });

  it('the digest goes at 08:00 on the Monday’s wall clock, summer and winter, north and south', () => {
    // 2026-03-30 and 2026-10-26 are Mondays just after Europe's changes; 2026-04-06 just after Sydney's.
    expect(digestSlot(new Date('2026-03-30T12:00:00Z'), 'Europe/Prague').toISOString()).toBe(
      '2026-03-30T06:00:00.000Z',
    );
    expect(digestSlot(new Date('2026-10-26T12:00:00Z'), 'Europe/Prague').toISOString()).toBe(
      '2026-10-26T07:00:00.000Z',
    );
    expect(digestSlot(new Date('2026-04-06T12:00:00Z'), 'Australia/Sydney').toISOString()).toBe(
      '2026-04-05T22:00:00.000Z',
    );
    expect(digestSlot(new Date('2026-03-30T05:59:59Z'), 'Europe/Prague').toISOString()).toBe(
      '2026-03-23T07:00:00.000Z',
    );
  });

  it('a mail’s dates read as Intl’s medium date style writes them, in Czech and in English', () => {
    for (let month = 0; month < 12; month++) {
      for (const date of [1, 9, 28]) {
        const d = new Date(Date.UTC(2026, month, date, 23, 30));
        for (const [lang, locale] of [
          ['cs', 'cs-CZ'],
          ['en', 'en-GB'],
        ] as const) {
          const intl = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
          expect(WORDS[lang].date(d)).toBe(intl);
        }
      }
    }
  });
});
