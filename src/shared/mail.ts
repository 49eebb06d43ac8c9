/**
 * E-mail (DECISIONS.md "Fifth wave" → "E-mail"): the words of the wire and the limits, written
 * once; the service and the page import them. Pure: no Node.js or server imports.
 */

/** The notification kinds a user may have mailed as they happen. */
export const MAIL_KINDS = ['live', 'reply', 'mention', 'rated'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export const MAIL_DIGESTS = ['off', 'weekly'] as const;
export type MailDigest = (typeof MAIL_DIGESTS)[number];

/** The languages a message is written in: the page's (cs, the site's own, or en). */
export const MAIL_LANGS = ['cs', 'en'] as const;
export type MailLang = (typeof MAIL_LANGS)[number];

export const MAIL_LIMITS = {
  /** The longest address (RFC 5321's path limit). */
  addressMax: 254,
  /** How long a confirmation link works. */
  confirmValidMs: 24 * 60 * 60_000,
  /** Confirmation messages one user may have sent in 24 hours. */
  confirmsPerDay: 5,
  /** At most one message of kinds per user in this long; later ones wait and are gathered. */
  kindsGapMs: 10 * 60_000,
  /** Tries of a message the server answers 4xx (or that cannot reach it): the first and 3 more. */
  attempts: 4,
  /** The weekly digest: Monday (1, as `Date#getDay`) at 08:00 in the service's time zone. */
  digestDay: 1,
  digestHour: 8,
  /** Characters of a reply's or mention's comment quoted in its message (cut at a word). */
  quoteMax: 200,
  /** Days a message's row (its recipient and what it told) is kept after it went or was given up. */
  sentKeptDays: 30,
} as const;

/**
 * An address the service accepts: at most 254 characters, one `@` with something before it,
 * a dot inside the domain; no spaces, controls or the characters that delimit addresses in a
 * header (so nothing typed here can add a header or a second recipient).
 */
export function validAddress(email: string): boolean {
  if (email.length > MAIL_LIMITS.addressMax) return false;
  if (/[\s\p{Cc}<>()[\]\\,;:"]/u.test(email)) return false;
  const at = email.split('@');
  if (at.length !== 2) return false;
  const [local = '', domain = ''] = at;
  return local !== '' && /^[^.]+(\.[^.]+)+$/.test(domain);
}
