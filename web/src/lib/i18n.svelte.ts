import { cs, csApiErrors } from '../locales/cs.ts';
import type { MessageKey } from '../locales/en.ts';
import type { ErrorCode } from '../../../src/errors.ts';
import {
  COMMENT_EDIT_WINDOW_MS,
  HOLD_WORDS,
  LIMITS,
  PROVIDER_NAMES,
  PROVIDERS,
  REPEAT_MINUTES,
} from '../../../src/shared/rules.ts';
import { FOLLOW_LIMIT } from '../../../src/shared/follows.ts';
import { SCHEDULE } from '../../../src/shared/schedules.ts';
import { REVIEWS } from '../../../src/shared/reviews.ts';
import { pluralCategory, writeNumber } from '../../../src/shared/formats.ts';
import { ApiError } from './api.ts';
import { writeDate } from './time.ts';

export type Lang = 'cs' | 'en';
export type { MessageKey };

interface Words {
  messages: Record<MessageKey, string>;
  errors: Record<ErrorCode, string>;
}

/**
 * Each language's words. Czech, the site's own, comes with the page (the server renders the
 * first view in it); English loads when it is first chosen (`loadWords`), so the first view
 * does not carry a second dictionary.
 */
const words: Partial<Record<Lang, Words>> = { cs: { messages: cs, errors: csApiErrors } };
const wordsOf = (lang: Lang): Words => words[lang] ?? { messages: cs, errors: csApiErrors };

/** Loads `lang`'s words unless the page holds them; refused when they cannot be fetched. */
export async function loadWords(lang: Lang): Promise<void> {
  if (words[lang]) return;
  const { en, enApiErrors } = await import('../locales/en.ts');
  words.en = { messages: en, errors: enApiErrors };
}

function initialLang(): Lang {
  const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem('lang');
  return saved === 'en' || saved === 'cs' ? saved : 'cs';
}

export const i18n = $state({ lang: initialLang() });

/** Switches the page's language, once its words are loaded. */
export async function setLang(lang: Lang): Promise<void> {
  await loadWords(lang);
  i18n.lang = lang;
  localStorage.setItem('lang', lang);
  document.documentElement.lang = lang;
}

/** A text with its `{name}` placeholders filled. */
export const fill = (text: string, params: Record<string, string | number> = {}): string =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));

/** The text for `key` in the current language, with `{name}` placeholders filled. */
export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  return fill(wordsOf(i18n.lang).messages[key], params);
}

/** A count with its plural form: `${key}.one`, `.few` (Czech) or `.other`, `{n}` filled. */
export function tn(key: string, n: number, params: Record<string, string | number> = {}): string {
  const category = pluralCategory(i18n.lang, n);
  const dict = wordsOf(i18n.lang).messages as Record<string, string>;
  const chosen = [`${key}.${category}`, `${key}.other`, key].find((k) => k in dict) ?? key;
  return t(chosen as MessageKey, { n, ...params });
}

/** The facts some error sentences name, filled in the same way in every language. */
const ERROR_FACTS = {
  min: LIMITS.commentMin,
  max: LIMITS.commentMax,
  nameMin: LIMITS.nameMin,
  minutes: COMMENT_EDIT_WINDOW_MS / 60_000,
  passwordMin: LIMITS.adminPasswordMin,
  followLimit: FOLLOW_LIMIT,
  repeatMinutes: REPEAT_MINUTES,
  words: HOLD_WORDS.words,
  wordMin: HOLD_WORDS.wordMin,
  wordMax: HOLD_WORDS.wordMax,
  segments: SCHEDULE.maxSegments,
  horizonDays: SCHEDULE.horizonDays,
  segmentHours: SCHEDULE.maxHours,
  daysMax: SCHEDULE.daysMax,
  rerateDays: REVIEWS.requestAfterDays,
};

/**
 * An error from the API (or the network) as a sentence in the current language, chosen by
 * the service's error code (never by its words). `params` fills what only the caller knows
 * (the login and provider of a member not found).
 */
export function errorText(err: unknown, params: Record<string, string> = {}): string {
  if (err instanceof ApiError) {
    if (err.status === 0) return t('error.network');
    // A guest writing from the browser a timed-out user signed out of (DECISIONS.md "Moderators'
    // tools"): no time is named, the refusal being a signed-out user's.
    if (err.code === 'timed_out' && !err.until) return t('error.timedOutBrowser');
    if (err.code) {
      const text: string = wordsOf(i18n.lang).errors[err.code];
      const values: Record<string, string | number> = { ...ERROR_FACTS, ...params };
      if (err.until) values.time = formatDate(err.until);
      return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
    }
    // An answer that is not one of the service's errors: its status, in this language.
    return t('error.status', { status: err.status });
  }
  return t('error.generic', { message: String(err) });
}

/** A time-out as its user reads it: until when, in the page's language (issue 29). */
export const timedOutText = (until: string): string => errorText(new ApiError(403, 'timed_out', until));

/** The providers as a form offers them: each one's value on the wire and its name. */
export const PROVIDER_CHOICES = PROVIDERS.map((p) => [p, PROVIDER_NAMES[p]] as const);

/** A provider's name as people know it (Twitch's for anything but Kick's). */
export const providerName = (p: string): string =>
  PROVIDER_NAMES[p === 'provider_b' ? 'provider_b' : 'provider_a'];

/** A count in the page's language ("1 234" in Czech, "1,234" in English). */
export const formatNumber = (n: number): string => writeNumber(i18n.lang, n);

/** A score to one decimal in the page's language ("7,5" in Czech, "7.5" in English). */
export const formatDecimal = (n: number): string => writeNumber(i18n.lang, n, 1, 1);

/** A moment to the minute in the page's language ("3. 12. 2026 18:00", "3 Dec 2026, 18:00"). */
export const formatDate = (iso: string): string => writeDate(iso, i18n.lang, 'exact');

/** A human message for SPEC.md's `/?auth_error=<code>` sign-in failures. */
export function authErrorText(code: string): string {
  const direct: MessageKey[] = [
    'authError.access_denied',
    'authError.invalid_state',
    'authError.provider_b_invalid_state',
    'authError.provider_a_not_configured',
    'authError.provider_b_not_configured',
    'authError.provider_a_no_token',
    'authError.provider_a_user_failed',
    'authError.provider_a_no_user',
    'authError.provider_b_no_token',
    'authError.provider_b_no_user',
    'authError.service_unavailable',
  ];
  const key = `authError.${code}` as MessageKey;
  if (direct.includes(key)) return t(key);
  let m = /^provider_a_token_failed_(\d+)$/.exec(code);
  if (m) return t('authError.provider_a_token_failed', { status: m[1] ?? '' });
  m = /^provider_b_user_failed_(\d+)_see_debug$/.exec(code);
  if (m) return t('authError.provider_b_user_failed', { status: m[1] ?? '' });
  m = /^provider_b_token_(\d+)_see_debug$/.exec(code);
  if (m) return t('authError.provider_b_token_debug', { status: m[1] ?? '' });
  m = /^provider_b_token_(\d+)_(.+)$/.exec(code);
  if (m) return t('authError.provider_b_token', { status: m[1] ?? '', message: m[2] ?? '' });
  return t('authError.other', { code });
}
