/**
 * Pure rules that the service and the page share. The page (web/) imports this module, so it
 * must stay free of Node.js and server imports.
 */

export const PROVIDERS = ['provider_a', 'provider_b'] as const;
export type Provider = (typeof PROVIDERS)[number];
/** Each provider's name as people know it: on the page, in messages, on the card, in the log. */
export const PROVIDER_NAMES: Record<Provider, string> = { provider_a: 'Twitch', provider_b: 'Kick' };

/** The seven criteria, by their short keys in payloads (SPEC.md's Rating table). */
export const SCORE_KEYS = ['s', 'g', 'a', 'v', 'n', 'ns', 'o'] as const;
export type ScoreKey = (typeof SCORE_KEYS)[number];
export type Scores = Record<ScoreKey, number>;

/** The criteria's names in the site's language (Czech): the page's Czech texts and the images. */
export const CRITERIA_CS: Record<ScoreKey, string> = {
  s: 'Statistiky',
  g: 'Grafika',
  a: 'Alerty',
  v: 'Vychytávky',
  n: 'Náhled',
  ns: 'Nastavení',
  o: 'Odlišnost',
};

export const LIMITS = {
  score: 10,
  reward: 130,
  notes: 2000,
  game: 100,
  title: 200,
  name: 100,
  /** A streamer's name has at least this many characters after sanitizing (SPEC.md). */
  nameMin: 2,
  teamName: 100,
  submitter: 60,
  commentMin: 2,
  commentMax: 1000,
  author: 50,
  /** A new shared administrator password (PUT /api/auth/password, the command-line tool). */
  adminPasswordMin: 12,
  /** A report's note (POST /api/reports). */
  reportNote: 500,
  /** Days an address block lasts: 1 to 365, 7 unless given. */
  blockDaysMax: 365,
  blockDaysDefault: 7,
  /** Addresses kept per user (sign-ins and sessions, the newest): what a ban remembers, a time-out applies to. */
  userAddresses: 20,
  /** Comments one bulk moderation action names by id. */
  bulkIds: 100,
  /** A moderator's time-out in hours (PUT /api/users `timeout_hours`, 0 lifts it; issue 29). */
  timeoutHoursMax: 720,
} as const;

/**
 * Issue 29 (DECISIONS.md "Guests earn trust"): which guest comments wait for staff, and when a
 * guest must solve the challenge. The first of each is the default.
 */
export const GUEST_HOLDS = ['none', 'links', 'first', 'all'] as const;
export type GuestHold = (typeof GUEST_HOLDS)[number];
export const GUEST_CHALLENGES = ['burst', 'always', 'off'] as const;
export type GuestChallenge = (typeof GUEST_CHALLENGES)[number];

/**
 * The guests' challenge: the largest number of its proof of work (a phone solves in about a
 * second at this size: docs/benchmarks.md), and the burst that makes it due.
 */
export const CHALLENGE = { maxnumber: 20_000, burstPosts: 3, burstSeconds: 60 } as const;

/**
 * DECISIONS.md "Words and repeats": the administrator's words that hold a comment (at most
 * `words`, each `wordMin` to `wordMax` characters once trimmed), and how far back a comment
 * equal to an earlier one of its author is a repeat.
 */
export const HOLD_WORDS = { words: 200, wordMin: 2, wordMax: 60 } as const;
export const REPEAT_MINUTES = 10;

/**
 * Lines of `hold_words` as DECISIONS.md "Words and repeats" takes them (the service, and the
 * page before it sends): each trimmed, one given twice (in any letter case: the hold ignores it)
 * kept once, as first given; `bad` those outside
 * `HOLD_WORDS.wordMin` to `wordMax` characters.
 */
export function holdWordList(items: readonly string[]): { words: string[]; bad: string[] } {
  const words: string[] = [];
  const bad: string[] = [];
  for (const item of items) {
    const word = item.trim();
    const length = codePointLength(word);
    if (length < HOLD_WORDS.wordMin || length > HOLD_WORDS.wordMax) bad.push(word);
    else if (!words.some((w) => w.toLowerCase() === word.toLowerCase())) words.push(word);
  }
  return { words, bad };
}

/** A link, as the `links` hold sees it: in any letter case. */
export const hasLink = (body: string): boolean => /https?:\/\/|www\.|discord\.gg\//i.test(body);

/** A guest's comment without a name is by this author (SPEC.md). */
export const DEFAULT_AUTHOR = 'Anonym';

/**
 * The shared-password administrator has no account: their comments are by the site's
 * administration (issue 30), shown with the staff role `admin`, never as a guest "Anonym".
 */
export const STAFF_AUTHOR = 'Administrace';

/** Why a comment is reported (POST /api/reports); anything else counts as `other`. */
export const REPORT_REASONS = ['spam', 'abuse', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What staff do to comments in bulk (PUT /api/moderation/comments). */
export const MODERATION_ACTIONS = ['hide', 'show', 'delete', 'dismiss', 'approve'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** An author may edit a comment this long after posting it (DECISIONS.md "Comments"). */
export const COMMENT_EDIT_WINDOW_MS = 15 * 60_000;

/**
 * The orders of a streamer's comments (DECISIONS.md "Comments: pinned and ordered"): `newest`
 * pages by `before`, `top` by likes (then newest) with `offset` up to `offsetMax`; a `top` page
 * without `limit` holds `topLimit` comments.
 */
export const COMMENT_ORDERS = ['newest', 'top'] as const;
export type CommentOrder = (typeof COMMENT_ORDERS)[number];
export const COMMENT_PAGES = { offsetMax: 10_000, topLimit: 50 } as const;

/** How many of the comments a browser posted as a guest its signed cookie remembers (the newest). */
export const GUEST_COMMENTS_KEPT = 100;

/** The largest page any `limit` gives unless its route says otherwise (DECISIONS.md "Names and limits"). */
export const PAGE_MAX = 100;

/** The site's operator, named by the administrator on the privacy page: the longest texts. */
export const OPERATOR_NAME_MAX = 100;
export const OPERATOR_CONTACT_MAX = 200;

/** A session ends after this many days unused, and at the latest this many after sign-in. */
export const SESSION_DAYS = { idle: 14, absolute: 30 } as const;

export const scoreSum = (scores: Scores): number => SCORE_KEYS.reduce((sum, k) => sum + scores[k], 0);

/** The most a total of all criteria can be: the staff's and a team's totals are out of this (70). */
export const TOTAL_MAX = SCORE_KEYS.length * LIMITS.score;

/**
 * A score out of `outOf` on the page's one scale, out of 10 (`LIMITS.score`) to one decimal,
 * half up (issue 30, item 20): the staff's total (/70), the audience's average (/10) and the
 * teams' total (/70) side by side. The API keeps each on its own scale.
 */
export const onTen = (value: number, outOf: number): number =>
  Math.round((value * LIMITS.score * 10) / outOf + 1e-9) / 10;

/**
 * The audience score you can trust (DECISIONS.md "Fifth wave"): the page shows the average
 * from `shownFrom` votes on ("too few votes" below); the audience ranking weighs a streamer's
 * votes with `prior` votes at the site's mean (src/votes/audience.ts); a streamer with at
 * least `divergentFrom` votes whose average is `divergentGap` or more away from the staff
 * total on ten is `divergent`.
 */
export const AUDIENCE = { shownFrom: 5, prior: 5, divergentFrom: 5, divergentGap: 3 } as const;

/** Whether the page shows a streamer's audience score: from `AUDIENCE.shownFrom` votes on. */
export const audienceShown = (s: { audience_score: number | null; audience_votes: number }): boolean =>
  s.audience_score !== null && s.audience_votes >= AUDIENCE.shownFrom;

/** The one `sort` of `GET /api/streamers`: the audience ranking (any other value is 400). */
export const AUDIENCE_SORT = 'audience';

/**
 * An average to one decimal, half up, in integers (no float drift): floor((20*sum + count) /
 * (2*count)) tenths. DECISIONS.md rounds community and audience averages this way.
 */
export const averageTenths = (sum: number, count: number): number =>
  count === 0 ? 0 : Math.floor((20 * sum + count) / (2 * count));

/** SPEC.md's moderator reward: round(30 + sum / 70 * 100) when evaluated, else 0. */
export const moderatorReward = (sum: number): number => (sum > 0 ? Math.round(30 + (sum / 70) * 100) : 0);

/** Lengths count Unicode code points, not UTF-16 units (DECISIONS.md). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * What a name may not hold because it shows as nothing or moves what it shows (issue 45, item
 * 9): Unicode's default-ignorable code points (the bidi controls, of which U+202E turns `nimda`
 * into "admin", zero widths, the Hangul fillers U+115F and U+3164, variation selectors, the
 * soft hyphen) and the blank braille pattern U+2800, which is not one yet draws nothing.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u2800]/gu;

export function stripInvisible(s: string): string {
  return s.replace(INVISIBLE, '');
}

/**
 * A comment's length as its minimum counts it: the code points that show, so that a body of
 * zero widths or fillers alone is too short (its maximum counts every code point stored).
 */
export const shownLength = (s: string): number => codePointLength(stripInvisible(s));

/** Lower case without diacritics (`Zlatý Kůň` is `zlaty kun`): what channels, slugs and searches start from. */
const plainLetters = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The key of the page's searches: plain letters without white space or the separators `_ - .`
 * that channel names use ("zlaty" finds "Zlatý", "czech mate" finds "CzechMate" and "czech_mate").
 */
export const searchKey = (s: string): string => plainLetters(s).replace(/[\s_.-]/gu, '');

/** A channel name as typed or stored, folded as the channel rule compares it: lower case, no white space. */
export const foldChannel = (channel: string): string => channel.trim().toLowerCase().replace(/\s+/g, '');

/**
 * A streamer's channel on a provider (DECISIONS.md "Second wave / Live data"): the stored
 * login or slug, or when that is empty the name lower-cased with white space removed, and
 * without diacritics (Twitch logins and Kick slugs have none: `Jirka Král` is `jirkakral`).
 */
export const channelOf = (name: string, stored: string): string =>
  stored.trim() ? foldChannel(stored) : plainLetters(name).replace(/\s+/g, '');

/** The readable tail of a streamer's address, `/s/<id>-<slug>` (DECISIONS.md "Streamer pages"). */
export const slugOf = (name: string): string =>
  plainLetters(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);

/** The page's address of a streamer. */
export const streamerPath = (id: number, name = ''): string => {
  const slug = slugOf(name);
  return slug ? `/s/${id}-${slug}` : `/s/${id}`;
};

/**
 * What the service stores of a typed name (lib/input.ts sanitize: tags, control characters
 * and runs of white space removed), so the page can repeat the stored name, not the typed one.
 */
export const cleanName = (s: string): string =>
  s
    .normalize('NFC')
    .replace(/<[^>]*>/g, '')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** What a Discord webhook can be told about (DECISIONS.md "Reaching out"). */
export const DISCORD_EVENTS = ['rated', 'suggested', 'live', 'reported'] as const;
export type DiscordEvent = (typeof DISCORD_EVENTS)[number];
/** Discord webhooks an installation may have. */
export const MAX_WEBHOOKS = 5;
/** The longest `events` list of one webhook (repeats allowed, each kept once). */
export const MAX_WEBHOOK_EVENTS = 20;
/** The characters of a webhook's token that the administrator's answer shows. */
export const WEBHOOK_TOKEN_SHOWN = 6;

/** The addresses of a streamer's share card and badges (DECISIONS.md "Reaching out"). */
export const cardPath = (id: number): string => `/s/${id}/card.png`;
export const badgePath = (id: number, format: 'svg' | 'png'): string => `/badge/${id}.${format}`;

/**
 * The key under which text is compared without regard to case (logins, streamer names):
 * made by the service, so SQLite and PostgreSQL agree whatever their collations (`ÄrgerX`
 * and `ärgerx` match on both).
 */
export const foldCase = (s: string): string => s.normalize('NFC').toLowerCase();

/** The Atom feeds (DECISIONS.md "Feeds"): the rating events, and a streamer's comments. */
export const FEED_PATH = '/feed.xml';
export const commentsFeedPath = (id: number): string => `/s/${id}/comments.xml`;
