/**
 * Schedules on the page (DECISIONS.md "Fifth wave" → "Schedules"): times in the visitor's time
 * zone, the day a stream falls on there, how long until it starts, the calendar feeds'
 * addresses and the chat bots' commands. Imported only by the components loaded when needed
 * (NextStream, Upcoming, ScheduleEditor, ChatLine): the first view does without it.
 */
import { BOT_PLATFORMS } from '../../../src/shared/chat-line.ts';
import { langOf, type TimeUnit, writeRelative } from '../../../src/shared/formats.ts';
import { channelOf, type Provider } from '../../../src/shared/rules.ts';
import { locale, writeDate } from './time.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The visitor's time zone as the browser names it (`Europe/Prague`), or '' when it does not say. */
export const visitorZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';

/**
 * How long until `iso` starts ("in 3 hours", "za 3 hodiny"), to the nearest minute under an
 * hour, the nearest hour under two days, then in days; "now" once it has started.
 */
export function untilText(iso: string, lang: string, now: number): string {
  const ms = new Date(iso).getTime() - now;
  const say = (value: number, unit: TimeUnit) => writeRelative(langOf(lang), value, unit);
  if (ms <= 0) return say(0, 'second');
  if (ms < HOUR - MINUTE / 2) return say(Math.max(1, Math.round(ms / MINUTE)), 'minute');
  if (ms < 2 * DAY - HOUR / 2) return say(Math.round(ms / HOUR), 'hour');
  return say(Math.round(ms / DAY), 'day');
}

/** The day `date` falls on in the visitor's time zone, as `YYYY-MM-DD` (a key to group by). */
export function dayKey(date: Date | string): string {
  // en-CA writes dates as ISO does; no `timeZone` given: the visitor's own.
  isoDays ??= new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' });
  return isoDays.format(new Date(date));
}
let isoDays: Intl.DateTimeFormat | undefined;

/** Whole days from one `YYYY-MM-DD` to another (calendar days, whatever the clocks did between). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);

/** A day's heading: "Today", "Tomorrow", then the weekday and the date ("středa 4. prosince"). */
export function dayHeading(key: string, todayKey: string, lang: string): string {
  const days = daysBetween(todayKey, key);
  const date = writeDate(`${key}T12:00:00Z`, lang, 'heading');
  const capital = (s: string) => s.charAt(0).toLocaleUpperCase(locale(lang)) + s.slice(1);
  if (days > 1) return capital(date);
  return `${capital(writeRelative(langOf(lang), days, 'day'))} · ${date}`;
}

/** A time of day in the visitor's zone ("18:00"). */
export const clockTime = (iso: string, lang: string): string => writeDate(iso, lang, 'clock');

/**
 * When a stream starts, with its day and the zone's short name ("út 3. 12. 18:00 SEČ", "Thu 3
 * Dec, 18:00 CET": the month named in English, where "03/12" reads as March to half the readers).
 */
export const startText = (iso: string, lang: string): string => writeDate(iso, lang, 'start');

/** A stream's time range in the visitor's zone: "18:00–21:00". */
export const rangeText = (start: string, end: string, lang: string): string =>
  `${clockTime(start, lang)}–${clockTime(end, lang)}`;

/**
 * The calendar feed at `path` (the service's `.ics` address) as a calendar app subscribes to it
 * (`webcal://`: Apple Calendar, Outlook and Thunderbird open it and keep it current) and as a
 * file to import or an address to paste (Google Calendar: "From URL").
 */
export function calendarAddresses(origin: string, path: string): { webcal: string; https: string } {
  const url = new URL(path, origin);
  return { webcal: `webcal://${url.host}${url.pathname}`, https: url.href };
}

/**
 * A `datetime-local` field's value (the visitor's wall time, to the minute) for an instant, and
 * back: the editor shows and takes times in the visitor's zone, the service stores UTC.
 */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const d = new Date(value); // read as the visitor's wall time
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The streamer's chat line's address parts (`/bot/<platform>/<channel>.txt`): its platform and its channel. */
export function chatLineParams(s: {
  name: string;
  platform: Provider;
  provider_a: string;
  kick_name: string;
}): {
  platform: 'twitch' | 'kick';
  file: string;
} {
  const channel = channelOf(s.name, s.platform === 'provider_a' ? s.provider_a : s.kick_name);
  return { platform: BOT_PLATFORMS[s.platform], file: `${channel}.txt` };
}

export const CHAT_BOTS = ['nightbot', 'streamelements', 'fossabot'] as const;
export type ChatBot = (typeof CHAT_BOTS)[number];

/**
 * What to type into the chat (as a moderator) to add the command `!<command>` that answers with
 * the line at `url`, in each bot's own words: Nightbot's `$(urlfetch)`, StreamElements'
 * `${customapi}`, Fossabot's `$(customapi)`.
 */
export function botCommand(bot: ChatBot, command: string, url: string): string {
  switch (bot) {
    case 'nightbot':
      return `!commands add !${command} $(urlfetch ${url})`;
    case 'streamelements':
      return `!command add ${command} \${customapi.${url}}`;
    case 'fossabot':
      return `!addcmd !${command} $(customapi ${url})`;
  }
}
