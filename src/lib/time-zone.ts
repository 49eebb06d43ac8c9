import { readFileSync, readlinkSync } from 'node:fs';

/**
 * A time zone's offset from UTC at any instant, read from the system's time zone database
 * (the TZif files of /usr/share/zoneinfo, RFC 8536), as the C library reads TZ. Intl could
 * tell it too, but its first date format loads ICU's formatting code and locale data: 8 MiB
 * more resident for the life of the process (docs/decisions.md "The service's time zone").
 */

/** Where the system keeps its zones (Debian's tzdata, a required package). */
export const ZONE_DIR = '/usr/share/zoneinfo';

/** A zone's name as the database spells it: `Europe/Prague`, `UTC`, `Etc/GMT+5`; never a path out. */
const ZONE_NAME = /^[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)*$/;

const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

/** The footer's rule for instants after the file's last transition (`CET-1CEST,M3.5.0,M10.5.0/3`). */
interface Rule {
  std: number;
  dst: { offset: number; start: Day; end: Day } | null;
}

/** A day of the year as POSIX writes it (`Mm.w.d`, `Jn`, `n`) and the local time of day, in seconds. */
type Day = ({ kind: 'M'; month: number; week: number; weekday: number } | { kind: 'J' | 'n'; n: number }) & {
  time: number;
};

interface Zone {
  /** Transition instants (seconds), ascending, and the UTC offset from each on. */
  at: number[];
  offsets: number[];
  /** The offset before the first transition. */
  first: number;
  rule: Rule | null;
}

const zones = new Map<string, Zone>();

/** Reads `name`'s rules once; false when the database has no such zone or its file is not TZif. */
export function loadZone(name: string): boolean {
  if (zones.has(name)) return true;
  if (!ZONE_NAME.test(name)) return false;
  let bytes: Buffer;
  try {
    bytes = readFileSync(`${ZONE_DIR}/${name}`);
  } catch {
    return false;
  }
  const zone = parseTzif(bytes);
  if (zone) zones.set(name, zone);
  return zone !== null;
}

/** The system's own zone: what /etc/localtime links to, else /etc/timezone's name, else UTC. */
export function systemZone(): string {
  try {
    const link = readlinkSync('/etc/localtime');
    const name = link.slice(link.indexOf('zoneinfo/') + 'zoneinfo/'.length);
    if (link.includes('zoneinfo/') && loadZone(name)) return name;
  } catch {
    // not a link: the name may still be written down
  }
  try {
    const name = readFileSync('/etc/timezone', 'utf8').trim();
    if (loadZone(name)) return name;
  } catch {
    // no name either
  }
  return 'UTC';
}

/** The zone's offset from UTC at the instant `ms`, in milliseconds (daylight saving included). */
export function zoneOffset(name: string, ms: number): number {
  if (!loadZone(name)) throw new Error(`unknown time zone ${name}`);
  const zone = zones.get(name) as Zone;
  const t = Math.floor(ms / 1000);
  const { at } = zone;
  if (at.length === 0 || t >= (at.at(-1) as number)) {
    if (zone.rule) return ruleOffset(zone.rule, t) * 1000;
    if (at.length === 0) return zone.first * 1000;
  }
  if (t < (at[0] as number)) return zone.first * 1000;
  let lo = 0;
  let hi = at.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((at[mid] as number) <= t) lo = mid;
    else hi = mid - 1;
  }
  return (zone.offsets[lo] as number) * 1000;
}

/** A TZif file's 64-bit data (version 2 and later) or, in a version 1 file, its 32-bit data. */
function parseTzif(b: Buffer): Zone | null {
  if (b.length < 44 || b.toString('latin1', 0, 4) !== 'TZif') return null;
  // The header's six counts, then the data block they size (times of `size` bytes).
  const counts = (p: number) => {
    const [isut, isstd, leap, time, type, char] = [0, 1, 2, 3, 4, 5].map((i) =>
      b.readUInt32BE(p + 20 + 4 * i),
    );
    return { isut, isstd, leap, time, type, char } as Record<
      'isut' | 'isstd' | 'leap' | 'time' | 'type' | 'char',
      number
    >;
  };
  const blockLength = (c: ReturnType<typeof counts>, size: number) =>
    c.time * (size + 1) + c.type * 6 + c.char + c.leap * (size + 4) + c.isstd + c.isut;
  let header = 0;
  let size = 4;
  if (b[4] !== 0) {
    header = 44 + blockLength(counts(0), 4);
    size = 8;
    if (b.length < header + 44 || b.toString('latin1', header, header + 4) !== 'TZif') return null;
  }
  const { time: timeCount, type: typeCount } = counts(header);
  const data = header + 44;
  const end = data + blockLength(counts(header), size);
  if (typeCount === 0 || b.length < end) return null;
  const types = data + timeCount * (size + 1);
  const offsetOf = (type: number) => b.readInt32BE(types + 6 * type);
  const at: number[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < timeCount; i++) {
    at.push(size === 8 ? Number(b.readBigInt64BE(data + 8 * i)) : b.readInt32BE(data + 4 * i));
    const type = b[data + timeCount * size + i] as number;
    if (type >= typeCount) return null;
    offsets.push(offsetOf(type));
  }
  let rule: Rule | null = null;
  if (size === 8) {
    const footer = b.toString('latin1', end).split('\n')[1] ?? '';
    rule = footer === '' ? null : parseRule(footer);
  }
  return { at, offsets, first: offsetOf(0), rule };
}

/** `[+-]hh[:mm[:ss]]` in seconds (hours up to 167, RFC 8536's extension). */
const CLOCK = /^([+-]?)(\d{1,3})(?::(\d{2}))?(?::(\d{2}))?/;
const NAME = /^(?:<[A-Za-z0-9+-]+>|[A-Za-z]{3,})/;
const DAY = /^(?:M(\d{1,2})\.(\d)\.(\d)|J(\d{1,3})|(\d{1,3}))(?:\/([+-]?\d{1,3}(?::\d{2}){0,2}))?/;

function clock(s: string): [number, string] | null {
  const m = CLOCK.exec(s);
  if (!m) return null;
  const seconds = Number(m[2]) * HOUR_S + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
  return [m[1] === '-' ? -seconds : seconds, s.slice(m[0].length)];
}

function day(s: string): [Day, string] | null {
  const m = DAY.exec(s);
  if (!m) return null;
  const time = m[6] === undefined ? 2 * HOUR_S : (clock(m[6]) as [number, string])[0];
  const rest = s.slice(m[0].length);
  if (m[1] !== undefined) {
    return [{ kind: 'M', month: Number(m[1]), week: Number(m[2]), weekday: Number(m[3]), time }, rest];
  }
  return [{ kind: m[4] !== undefined ? 'J' : 'n', n: Number(m[4] ?? m[5]), time }, rest];
}

/** A POSIX TZ string; its offsets are west of Greenwich, so their sign is turned (0 - x: never -0). */
function parseRule(s: string): Rule | null {
  const std = NAME.exec(s);
  const stdClock = std ? clock(s.slice(std[0].length)) : null;
  if (!stdClock) return null;
  const [west, afterStd] = stdClock;
  const rule: Rule = { std: 0 - west, dst: null };
  const dst = NAME.exec(afterStd);
  if (!dst) return afterStd === '' ? rule : null;
  let rest = afterStd.slice(dst[0].length);
  let offset = rule.std + HOUR_S;
  const dstClock = clock(rest);
  if (dstClock) [offset, rest] = [0 - dstClock[0], dstClock[1]];
  // Without dates, POSIX's default: the United States' rules since 2007.
  const start = rest === '' ? day('M3.2.0') : rest.startsWith(',') ? day(rest.slice(1)) : null;
  const end =
    rest === '' ? day('M11.1.0') : start && start[1].startsWith(',') ? day(start[1].slice(1)) : null;
  if (!start || !end || (rest !== '' && end[1] !== '')) return null;
  rule.dst = { offset, start: start[0], end: end[0] };
  return rule;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Seconds from the year's start to the day's local time (POSIX's three ways of naming a day). */
function secondsInto(year: number, d: Day): number {
  if (d.kind !== 'M') {
    // `n` counts from 0 with February 29; `Jn` from 1 without it.
    const days = d.kind === 'n' ? d.n : d.n - 1 + (isLeap(year) && d.n >= 60 ? 1 : 0);
    return days * DAY_S + d.time;
  }
  const firstOfMonth = Date.UTC(year, d.month - 1, 1) / 1000;
  const daysInMonth = new Date(Date.UTC(year, d.month, 0)).getUTCDate();
  const firstWeekday = new Date(firstOfMonth * 1000).getUTCDay();
  let date = 1 + ((d.weekday - firstWeekday + 7) % 7) + (d.week - 1) * 7;
  while (date > daysInMonth) date -= 7;
  return firstOfMonth - Date.UTC(year, 0, 1) / 1000 + (date - 1) * DAY_S + d.time;
}

/** A POSIX TZ string's offset at the instant `ms`, in milliseconds (tests name rules no zone file uses). */
export function posixOffset(tz: string, ms: number): number {
  const rule = parseRule(tz);
  if (!rule) throw new Error(`not a POSIX TZ string: ${tz}`);
  return ruleOffset(rule, Math.floor(ms / 1000)) * 1000;
}

function ruleOffset(rule: Rule, t: number): number {
  const { dst } = rule;
  if (!dst) return rule.std;
  const year = new Date((t + rule.std) * 1000).getUTCFullYear();
  const yearStart = Date.UTC(year, 0, 1) / 1000;
  // The change to daylight saving is written in standard time, the change back in daylight time.
  const start = yearStart + secondsInto(year, dst.start) - rule.std;
  const end = yearStart + secondsInto(year, dst.end) - dst.offset;
  const inDst = start < end ? t >= start && t < end : t >= start || t < end;
  return inDst ? dst.offset : rule.std;
}
