import type { AuditTitles, AuditWords } from '../lib/audit-words.ts';
import { ratedWords } from '../../../src/shared/audit-rating.ts';
import { en } from './en.ts';

/**
 * The audit log in English (the administration's audit tab, loaded when it opens; not
 * part of the first view): each action's title and the sentence of an entry.
 */
export const enAuditTitles: AuditTitles = {
  'comment.delete': 'Comment deleted',
  'comment.hide': 'Comment hidden',
  'member.add': 'Member added',
  'member.remove': 'Member removed',
  'settings.update': 'Settings changed',
  'settings.operator': 'Operator changed',
  'settings.words': 'Held words changed',
  'streamer.add': 'Streamer added',
  'streamer.delete': 'Streamer deleted',
  'streamer.lock': 'Ratings locked',
  'team.create': 'Team created',
  'team.delete': 'Team deleted',
  'team.update': 'Team changed',
  'user.ban': 'User banned',
  'user.moderator': 'Moderator changed',
  'streamer.edit': 'Rating changed',
  'streamer.rate': 'Streamer rated',
  'streamer.reply_remove': "Streamer's reply removed",
  // One comment changed: what happened to it, as an entry on one comment is titled.
  'comment.bulk': (p) =>
    p.count === 1
      ? {
          hide: 'Comment hidden',
          show: 'Comment shown',
          delete: 'Comment deleted',
          dismiss: 'Reports dismissed',
          approve: 'Comment approved',
        }[p.action]
      : 'Comments moderated',
  'comment.pin': 'Comment pinned',
  'user.timeout': 'User timed out',
  'user.admin': 'Administrator changed',
  'user.sessions': 'Signed out everywhere',
  'settings.discord': 'Discord changed',
  'auth.password': 'Password changed',
  'block.add': 'Address blocked',
  'block.remove': 'Block lifted',
  'review.save': 'Review saved',
  'review.publish': 'Reviews published',
  'review.request': 'Re-rating asked for',
};

/**
 * By display name as the rest of the page names people (older entries may have only the
 * login); an empty login is a deleted account (the service forgets the person).
 */
const account = (
  p: { login: string; display_name?: string; provider: string },
  name: (p: string) => string,
) => (p.login ? `${p.display_name || p.login} (${name(p.provider)})` : 'a deleted user');
const author = (name: string) => name || 'a deleted user';
/** Where a comment was; an entry written before the log named the streamer does not say. */
const on = (streamer: string | undefined) => (streamer === undefined ? '' : ` on ${streamer}`);
const total = (n: number | null) => (n === null ? 'unrated' : String(n));
/** A number and its noun, one or more ("1 comment", "2 comments"). */
const counted = (n: number, one: string, other = `${one}s`) => `${n} ${n === 1 ? one : other}`;

/** The audit log's entries (an action and its parameters, audit/actions.ts) in English. */
export const enAudit: AuditWords = {
  'streamer.add': (p) => `Added streamer ${p.name}`,
  'streamer.edit': ratedWords,
  'streamer.rate': ratedWords,
  'streamer.lock': (p) => `${p.locked ? 'Locked' : 'Unlocked'} community ratings of ${p.name}`,
  'streamer.delete': (p) => `Deleted streamer ${p.name}`,
  'comment.delete': (p) => `Deleted a comment by ${author(p.author)}${on(p.streamer)}`,
  'comment.hide': (p) => `${p.hidden ? 'Hid' : 'Showed'} a comment by ${author(p.author)}${on(p.streamer)}`,
  'team.create': (p) => `Created team ${p.team}`,
  'team.update': (p) => `Updated team ${p.team}`,
  'team.delete': (p) => `Deleted team ${p.team}`,
  'member.add': (p, name) =>
    `Added ${account(p, name)} to team ${p.team} as ${p.role === 'owner' ? 'owner' : 'rater'}`,
  'member.remove': (p, name) => `Removed ${account(p, name)} from team ${p.team}`,
  'user.ban': (p, name) => `${p.banned ? 'Banned' : 'Unbanned'} ${account(p, name)}`,
  'user.moderator': (p, name) =>
    p.moderator ? `Made ${account(p, name)} a moderator` : `${account(p, name)} is no longer a moderator`,
  'settings.update': (p) =>
    p.key === 'guest_hold'
      ? `${en['trust.guestHold']}: ${en[`trust.guestHold.${p.value}`]}`
      : p.key === 'guest_challenge'
        ? `${en['trust.guestChallenge']}: ${en[`trust.guestChallenge.${p.value}`]}`
        : p.key === 'refuse_repeats'
          ? `${en['words.refuseRepeats']}: ${p.value ? 'on' : 'off'}`
          : `Sign-in to comment: ${p.value ? 'required' : 'not required'}`,
  'settings.discord': (p) => `Discord: ${counted(p.webhooks.length, 'connected channel')}`,
  'settings.words': (p) => `${en['words.holdWords']}: ${p.words.length}`,
  'settings.operator': (p) =>
    `Operator on the privacy page: ${p.name ?? '(none)'}, contact ${p.contact ?? '(none)'}`,
  'auth.password': () => 'Changed the administrator password',
  'user.admin': (p, name) =>
    p.admin
      ? `Made ${account(p, name)} an administrator`
      : `${account(p, name)} is no longer an administrator`,
  'user.sessions': (p, name) => `Signed ${account(p, name)} out everywhere (${counted(p.count, 'session')})`,
  'user.timeout': (p, name) =>
    p.hours === 0
      ? `Lifted the time-out of ${account(p, name)}`
      : `Timed out ${account(p, name)} for ${counted(p.hours, 'hour')}`,
  'comment.bulk': (p) => {
    const verb = {
      hide: 'Hid',
      show: 'Showed',
      delete: 'Deleted',
      dismiss: 'Dismissed the reports of',
      approve: 'Approved',
    }[p.action];
    if (p.comment) return `${verb} a comment by ${author(p.comment.author)}${on(p.comment.streamer)}`;
    const which =
      'ids' in p.selector
        ? 'selected'
        : 'user_id' in p.selector
          ? `user #${p.selector.user_id}'s`
          : `guest ${p.selector.guest_tag}'s`;
    return `${verb} ${p.count} ${which} ${p.count === 1 ? 'comment' : 'comments'}`;
  },
  'block.add': (p) =>
    `Blocked the address of guest ${p.guest_tag} (${author(p.author)}) for ${counted(p.days, 'day')}`,
  'block.remove': (p) => `Lifted the block of guest ${p.guest_tag}`,
  // Issue 26
  'streamer.reply_remove': (p) => `Removed the streamer's reply on ${p.name}`,
  'comment.pin': (p) =>
    `${p.pinned ? 'Pinned' : 'Unpinned'} a comment by ${author(p.author)}${on(p.streamer)}`,
  'review.save': (p) => `${p.abstain ? 'Abstained from reviewing' : 'Reviewed'} ${p.name}`,
  'review.publish': (p) =>
    `Published ${p.reviews} ${p.reviews === 1 ? 'review' : 'reviews'} of ${p.name}: ${total(p.from)} → ${p.to} (spread ${p.spread})`,
  'review.request': (p) => `The streamer asked for a re-rating of ${p.name}`,
};
