/**
 * Lenient input coercion as DECISIONS.md settles it: SPEC.md clamps rather than rejects, so
 * numbers may arrive as numeric strings, fractions are truncated and anything non-numeric
 * counts as 0. String lengths count Unicode code points.
 */
import { stripInvisible } from '../shared/rules.ts';

/** Largest id PostgreSQL's `integer` holds; larger ids can name no row. */
const MAX_ID = 2_147_483_647;

export function toInt(value: unknown): number {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim() !== '') n = Number(value);
  else return 0;
  if (Number.isNaN(n)) return 0;
  return Number.isFinite(n) ? Math.trunc(n) || 0 : n;
}

export function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

/**
 * An id from a query or body: null when missing, 0, negative or non-numeric. An id too large
 * for any row becomes -1, which names no row, so lookups answer "not found" instead of
 * overflowing the database's integer type.
 */
export function parseId(value: unknown): number | null {
  const n = toInt(value);
  if (!(n > 0)) return null;
  return n > MAX_ID ? -1 : n;
}

/**
 * A query flag such as `?admin=1` or `?lock`: set when its name is in the query, whatever its
 * value (SPEC.md: "query flag `lock` present"; `?admin=0` asks for the administrator's add).
 */
export function flag(value: unknown): boolean {
  return value !== undefined;
}

/**
 * A field that must be a boolean (`follow`, `refuse_repeats`): JSON's true and false, or a form's
 * texts for them ("true", "false", "1", "0"; DECISIONS.md "Requests": bodies may be forms), and
 * the numbers 1 and 0. Anything else is undefined: the route's `Invalid <field>`.
 */
export function booleanField(value: unknown): boolean | undefined {
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  return undefined;
}

/** What a body's flag counts as off besides these texts: JSON's false, 0 and null, or no value. */
const FALSY = new Set<unknown>([false, 0, null, undefined]);
/** The texts a form or a person sends for off, in any letter case. */
const OFF_WORDS = new Set(['', '0', 'false', 'no', 'off']);

/**
 * Truthy in the loose sense SPEC.md's lock mode uses (DECISIONS.md: "any truthy", such as true,
 * 1, "1", "true"): anything but false, 0, NaN, null, an absent value, an empty list, and the
 * texts "", "0", "false", "no" and "off" (a person's `{"auth_enabled": "no"}` turned sign-in on).
 */
export function truthy(value: unknown): boolean {
  if (typeof value === 'string') return !OFF_WORDS.has(value.trim().toLowerCase());
  if (Array.isArray(value)) return value.length > 0;
  return !FALSY.has(value) && !Number.isNaN(value);
}

/** A string field: strings as given, numbers as their text, anything else absent. */
export function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export { codePointLength, stripInvisible } from '../shared/rules.ts';

/** Cut to at most `max` code points, never splitting one. */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  let out = '';
  let n = 0;
  for (const ch of s) {
    if (n++ === max) break;
    out += ch;
  }
  return out;
}

// C0 and C1 controls and DEL; `keepLines` spares \n and \t in multi-line text.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function stripControls(s: string, keepLines = false): string {
  return s.replace(keepLines ? CONTROLS_BUT_LINES : CONTROLS, '');
}

/**
 * A name as it is stored (a guest's author name, a suggester's label, a team's name, a display
 * name from a provider): controls and invisible characters removed, trimmed, cut. Empty when
 * nothing visible was given; each input then says what an empty name means.
 */
export function nameLine(value: unknown, max = Infinity): string {
  return cut(stripInvisible(stripControls(text(value) ?? '')).trim(), max);
}

/**
 * DECISIONS.md "Sanitized": NFC; HTML tags removed; control characters (and, as in every name,
 * invisible ones) removed; white space folded; trimmed; cut to 100 characters.
 */
export function sanitize(value: unknown, max = 100): string {
  const s = text(value);
  if (s === undefined) return '';
  return cut(
    stripInvisible(stripControls(s.normalize('NFC').replace(/<[^>]*>/g, '')))
      .replace(/\s+/g, ' ')
      .trim(),
    max,
  );
}

/**
 * A single-line text field (games, titles, a schedule's segments): a line break or tab is a
 * space between the words it parted (not glued: `world\nnový` is `world nový`), other controls
 * removed, trimmed, cut.
 */
export function singleLine(value: unknown, max: number): string {
  return cut(stripControls((text(value) ?? '').replace(/[\t\n\v\f\r]+/g, ' ')).trim(), max);
}

/**
 * The bidi controls that reorder what follows them: embeddings, overrides and isolates (U+202A to
 * U+202E, U+2066 to U+2069). In a comment, `\u202Etnuc` is stored as a word no word rule knows and
 * shown as one it would catch (stop 110's week). The marks (U+200E, U+200F), which reorder
 * nothing, and the joiners of emoji stay.
 */
const REORDERING = /[\u202A-\u202E\u2066-\u2069]/g;

/** Multi-line user text (comments, notes): NFC, controls other than line breaks and reordering ones removed, trimmed. */
export function cleanText(value: unknown): string | undefined {
  const s = text(value);
  return s === undefined ? undefined : stripControls(s.normalize('NFC'), true).replace(REORDERING, '').trim();
}
