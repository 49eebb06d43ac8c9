/**
 * Pure rules that the service and the page share. The page (web/) imports this module, so it
 * must stay free of Node.js and server imports.
 */

export const PROVIDERS = ['provider_a', 'provider_b'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The seven criteria, by their short keys in payloads (SPEC.md's Rating table). */
export const SCORE_KEYS = ['s', 'g', 'a', 'v', 'n', 'ns', 'o'] as const;
export type ScoreKey = (typeof SCORE_KEYS)[number];
export type Scores = Record<ScoreKey, number>;

export const LIMITS = {
  score: 10,
  reward: 130,
  notes: 2000,
  game: 100,
  title: 200,
  name: 100,
  teamName: 100,
  submitter: 60,
  commentMin: 2,
  commentMax: 1000,
  author: 50,
} as const;

/** A guest's comment without a name is by this author (SPEC.md). */
export const DEFAULT_AUTHOR = 'Anonym';

/** An author may edit a comment this long after posting it (DECISIONS.md "Comments"). */
export const COMMENT_EDIT_WINDOW_MS = 15 * 60_000;

export const scoreSum = (scores: Scores): number => SCORE_KEYS.reduce((sum, k) => sum + scores[k], 0);

/** SPEC.md's moderator reward: round(30 + sum / 70 * 100) when evaluated, else 0. */
export const moderatorReward = (sum: number): number => (sum > 0 ? Math.round(30 + (sum / 70) * 100) : 0);

/** Lengths count Unicode code points, not UTF-16 units (DECISIONS.md). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * A streamer's channel on a provider (DECISIONS.md "Second wave / Live data"): the stored
 * login or slug, or when that is empty the name lower-cased with white space removed.
 */
export const channelOf = (name: string, stored: string): string =>
  (stored.trim() || name).toLowerCase().replace(/\s+/g, '');

/** Lower case without diacritics: the key of the page's search ("zlaty" finds "Zlatý"). */
export const searchKey = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** The readable tail of a streamer's address, `/s/<id>-<slug>` (DECISIONS.md "Streamer pages"). */
export const slugOf = (name: string): string =>
  searchKey(name)
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
