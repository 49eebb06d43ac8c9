import { type Static, type TSchema, Type } from 'typebox';
import { ratedWords } from '../shared/audit-rating.ts';
import { Nullable, StringEnum } from '../lib/schemas.ts';
import {
  DISCORD_EVENTS,
  GUEST_CHALLENGES,
  GUEST_HOLDS,
  MODERATION_ACTIONS,
  type Provider,
  PROVIDERS,
} from '../shared/rules.ts';

/**
 * Every kind of audit entry and the parameters it carries. An entry is data (an action and
 * its parameters); each side words it in its own language: the service in English
 * (`describe`, stored as the entry's summary), the page in Czech and English (its locales,
 * typed from the generated client, so a new action fails the page's check until worded).
 */

const name = Type.String({ description: "The streamer's name" });
/**
 * A person: their login, and their display name as the provider gave it (how the page names
 * people; a Twitch login is lower-cased), which entries written before it was recorded lack.
 */
const who = {
  login: Type.String(),
  display_name: Type.Optional(Type.String({ description: 'Their display name; older entries lack it' })),
  provider: StringEnum(PROVIDERS),
};
const team = Type.String({ description: "The team's name" });
const guestTag = Type.String({ description: "A guest's address tag, its first 10 characters" });
/** The streamer a comment was under; entries written before it was recorded lack it. */
const under = Type.Optional(Type.String({ description: "The comment's streamer's name" }));
/** Which comments a bulk moderation action chose: by id, by user, or by guest tag. */
const selector = Type.Union([
  Type.Object({ ids: Type.Array(Type.Integer()) }),
  Type.Object({ user_id: Type.Integer() }),
  Type.Object({ guest_tag: guestTag }),
]);

export const AUDIT_PARAMS = {
  'streamer.add': Type.Object({ name }),
  'streamer.edit': Type.Object({
    name,
    from: Nullable(Type.Integer({ description: 'The total before; null when unrated' })),
    to: Type.Integer({ description: 'The total after' }),
    renamed: Type.Optional(
      Type.String({ description: "The streamer's new name, when the write renamed it" }),
    ),
  }),
  'streamer.rate': Type.Object({
    name,
    from: Nullable(Type.Integer({ description: 'The total before; null when unrated' })),
    to: Type.Integer({ description: 'The total after' }),
  }),
  'streamer.lock': Type.Object({ name, locked: Type.Boolean() }),
  'streamer.delete': Type.Object({ name }),
  'comment.delete': Type.Object({ author: Type.String(), streamer: under }),
  'comment.hide': Type.Object({ author: Type.String(), streamer: under, hidden: Type.Boolean() }),
  'team.create': Type.Object({ team }),
  'team.update': Type.Object({ team }),
  'team.delete': Type.Object({ team }),
  'member.add': Type.Object({ ...who, team, role: StringEnum(['owner', 'rater']) }),
  'member.remove': Type.Object({ ...who, team }),
  'user.ban': Type.Object({ ...who, banned: Type.Boolean() }),
  'user.moderator': Type.Object({ ...who, moderator: Type.Boolean() }),
  'user.timeout': Type.Object({ ...who, hours: Type.Integer({ description: 'Hours; 0 lifts it' }) }),
  /** A public setting as set (issue 29: the guests' hold and challenge too), named as on the wire. */
  'settings.update': Type.Union([
    Type.Object({ key: Type.Literal('auth_enabled'), value: Type.Boolean() }),
    Type.Object({ key: Type.Literal('guest_hold'), value: StringEnum(GUEST_HOLDS) }),
    Type.Object({ key: Type.Literal('guest_challenge'), value: StringEnum(GUEST_CHALLENGES) }),
    Type.Object({ key: Type.Literal('refuse_repeats'), value: Type.Boolean() }),
  ]),
  /** The words that hold a comment (DECISIONS.md "Words and repeats"), as set; staff see them anyway. */
  'settings.words': Type.Object({ words: Type.Array(Type.String()) }),
  'settings.operator': Type.Object({
    name: Nullable(Type.String({ description: "The operator's name now; null when unset" })),
    contact: Nullable(Type.String({ description: "The operator's contact now; null when unset" })),
  }),
  'settings.discord': Type.Object({
    webhooks: Type.Array(
      Type.Object({
        id: Nullable(Type.Integer({ description: 'The stored webhook; null for a new one' })),
        events: Type.Array(StringEnum(DISCORD_EVENTS)),
      }),
      { description: 'The Discord webhooks now set (never their URLs, which are secrets)' },
    ),
  }),
  'auth.password': Type.Object({}),
  'user.admin': Type.Object({ ...who, admin: Type.Boolean() }),
  'user.sessions': Type.Object({ ...who, count: Type.Integer({ description: 'Sessions ended' }) }),
  'comment.bulk': Type.Object({
    action: StringEnum(MODERATION_ACTIONS),
    count: Type.Integer({ description: 'Comments changed' }),
    selector,
    comment: Type.Optional(
      Type.Object(
        { author: Type.String(), streamer: Type.String({ description: "The comment's streamer's name" }) },
        { description: 'The comment acted on, when exactly one changed; older entries lack it' },
      ),
    ),
  }),
  'block.add': Type.Object({ guest_tag: guestTag, author: Type.String(), days: Type.Integer() }),
  'block.remove': Type.Object({ guest_tag: guestTag }),
  'streamer.reply_remove': Type.Object({ name }),
  /** Fifth wave: staff pin or unpin a comment (pinning unpins the streamer's other one). */
  'comment.pin': Type.Object({ author: Type.String(), streamer: under, pinned: Type.Boolean() }),
  /** Fifth wave: a staff review or abstention, without its scores or note (reviews are blind). */
  'review.save': Type.Object({ name, abstain: Type.Boolean() }),
  /** Fifth wave: the administrator published a streamer's reviews as its rating. */
  'review.publish': Type.Object({
    name,
    from: Nullable(Type.Integer({ description: 'The total before; null when unrated' })),
    to: Type.Integer({ description: 'The total published: the sum of the medians' }),
    reviews: Type.Integer({ description: 'The reviews counted (abstentions aside)' }),
    spread: Type.Number({ description: "The standard deviation of the reviews' sums" }),
  }),
  /** Fifth wave: the user who speaks for the streamer asked for a re-rating. */
  'review.request': Type.Object({ name }),
} satisfies Record<string, TSchema>;

export type AuditAction = keyof typeof AUDIT_PARAMS;
export type AuditParams<A extends AuditAction> = Static<(typeof AUDIT_PARAMS)[A]>;

export const AUDIT_ACTIONS = Object.keys(AUDIT_PARAMS) as AuditAction[];

export const isAuditAction = (action: string): action is AuditAction => Object.hasOwn(AUDIT_PARAMS, action);

/** A user as an entry names them (`who`), from their account as it is when the entry is written. */
export const personOf = (user: { login: string; display_name: string; provider: Provider }) => ({
  login: user.login,
  display_name: user.display_name,
  provider: user.provider,
});

/**
 * A person by display name (else login) and provider; an empty login is a deleted account
 * (account/delete.ts).
 */
const account = (p: { login: string; display_name?: string; provider: string }) =>
  p.login ? `${p.display_name || p.login} (${p.provider})` : 'a deleted user';
const total = (n: number | null) => (n === null ? 'unrated' : String(n));
const by = (author: string) => author || 'a deleted user';
/** Where a comment was: " on <streamer>", or nothing for an entry that does not say. */
const on = (streamer: string | undefined) => (streamer === undefined ? '' : ` on ${streamer}`);
const selection = (s: Static<typeof selector>): string =>
  'ids' in s
    ? `${s.ids.length} selected`
    : 'user_id' in s
      ? `by user ${s.user_id}`
      : `by guest ${s.guest_tag}`;

/** The service's English words for each action (the entry's `summary`). */
const ENGLISH: { [A in AuditAction]: (p: AuditParams<A>) => string } = {
  'streamer.add': (p) => `Added streamer ${p.name}`,
  'streamer.edit': ratedWords,
  'streamer.rate': ratedWords,
  'streamer.lock': (p) => `${p.locked ? 'Locked' : 'Unlocked'} community ratings of ${p.name}`,
  'streamer.delete': (p) => `Deleted streamer ${p.name}`,
  'comment.delete': (p) => `Deleted a comment by ${by(p.author)}${on(p.streamer)}`,
  'comment.hide': (p) => `${p.hidden ? 'Hid' : 'Showed'} a comment by ${by(p.author)}${on(p.streamer)}`,
  'team.create': (p) => `Created team ${p.team}`,
  'team.update': (p) => `Updated team ${p.team}`,
  'team.delete': (p) => `Deleted team ${p.team}`,
  'member.add': (p) => `Added ${account(p)} to team ${p.team} as ${p.role}`,
  'member.remove': (p) => `Removed ${account(p)} from team ${p.team}`,
  'user.ban': (p) => `${p.banned ? 'Banned' : 'Unbanned'} ${account(p)}`,
  'user.timeout': (p) =>
    p.hours === 0 ? `Lifted the time-out of ${account(p)}` : `Timed out ${account(p)} for ${p.hours} hours`,
  'user.moderator': (p) =>
    `${p.moderator ? 'Made' : 'Removed'} ${account(p)} ${p.moderator ? 'a moderator' : 'as moderator'}`,
  'settings.update': (p) => `Set ${p.key} to ${p.value}`,
  'settings.operator': (p) =>
    `Set the privacy page's operator to ${JSON.stringify(p.name)}, contact ${JSON.stringify(p.contact)}`,
  'settings.discord': (p) => `Set ${p.webhooks.length} Discord webhook(s)`,
  'settings.words': (p) => `Set ${p.words.length} word(s) that hold a comment`,
  'auth.password': () => 'Changed the administrator password',
  'user.admin': (p) =>
    `${p.admin ? 'Made' : 'Removed'} ${account(p)} ${p.admin ? 'an administrator' : 'as administrator'}`,
  'user.sessions': (p) => `Signed ${account(p)} out everywhere`,
  'comment.bulk': (p) =>
    p.comment
      ? `Moderation: ${p.action} a comment by ${by(p.comment.author)}${on(p.comment.streamer)}`
      : `Moderation: ${p.action} on ${p.count} comments (${selection(p.selector)})`,
  'block.add': (p) => `Blocked the address of guest ${p.guest_tag} (${p.author}) for ${p.days} days`,
  'block.remove': (p) => `Lifted the block of guest ${p.guest_tag}`,
  'streamer.reply_remove': (p) => `Removed the streamer's reply on ${p.name}`,
  'comment.pin': (p) => `${p.pinned ? 'Pinned' : 'Unpinned'} a comment by ${by(p.author)}${on(p.streamer)}`,
  'review.save': (p) => `${p.abstain ? 'Abstained from reviewing' : 'Reviewed'} ${p.name}`,
  'review.publish': (p) =>
    `Published ${p.reviews} review(s) of ${p.name}: ${total(p.from)} → ${p.to} (spread ${p.spread})`,
  'review.request': (p) => `Asked for a re-rating of ${p.name}`,
};

export function describe<A extends AuditAction>(action: A, params: AuditParams<A>): string {
  return ENGLISH[action](params);
}
