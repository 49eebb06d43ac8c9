import { foldCase } from './rules.ts';

/**
 * DECISIONS.md "Fourth wave" → "Notifications": the kinds, in the words of the wire; `live`
 * from the fifth wave's "Following" (a followed streamer's stream started).
 */
export const NOTIFICATION_KINDS = ['reply', 'mention', 'like', 'hidden', 'rated', 'live'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Kinds about a comment, left out once it is hidden or deleted (`hidden` stays). */
export const COMMENT_KINDS: readonly NotificationKind[] = ['reply', 'mention', 'like'];

export const NOTIFICATION_LIMITS = {
  /** Users one comment may mention. */
  mentions: 5,
  /** The list's `limit`: 1 to 100, 30 unless given. */
  listMax: 100,
  listDefault: 30,
  /** Ids one PUT marks read. */
  readIds: 100,
} as const;

/**
 * The logins a body mentions, folded, each once, in the order they first appear: `@` and a
 * run of letters, digits and `_` (so the next character is none of those).
 */
export function mentionedLogins(body: string): string[] {
  const seen = new Set<string>();
  for (const m of body.matchAll(/@([\p{L}\p{N}_]+)/gu)) seen.add(foldCase(m[1] ?? ''));
  return [...seen];
}
