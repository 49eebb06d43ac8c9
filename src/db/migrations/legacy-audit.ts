import { MODERATION_ACTIONS } from '../../shared/rules.ts';

/**
 * The parameters of an entry recorded before entries carried them, read back from its
 * English summary (the shapes audit/actions.ts words them in) and its details. Used once per
 * old entry: by the migration that added parameters and by the import of an older export
 * file. An entry whose summary does not read back keeps null.
 */
type Details = Record<string, unknown> | null;

/**
 * Every action the audit log has, as its summary reads (test/audit.test.ts reads each back
 * into the parameters audit/actions.ts gives it). Its own words, not audit/actions.ts's
 * types: the migration stays as it ran.
 */
const SHAPES = {
  'streamer.add': /^Added streamer (.*)$/s,
  'streamer.edit': /^Rated (.*): (unrated|\d+) → (\d+)$/s,
  'streamer.rate': /^Rated (.*): (unrated|\d+) → (\d+)$/s,
  'streamer.lock': /^(Locked|Unlocked) community ratings of (.*)$/s,
  'streamer.delete': /^Deleted streamer (.*)$/s,
  'comment.delete': /^Deleted a comment by (.*)$/s,
  'comment.hide': /^(Hid|Showed) a comment by (.*)$/s,
  'team.create': /^Created team (.*)$/s,
  'team.update': /^Updated team (.*)$/s,
  'team.delete': /^Deleted team (.*)$/s,
  'member.add': /^Added (.*) \((provider_a|provider_b)\) to team (.*) as (owner|rater)$/s,
  'member.remove': /^Removed (.*) \((provider_a|provider_b)\) from team (.*)$/s,
  'user.ban': /^(Banned|Unbanned) (.*) \((provider_a|provider_b)\)$/s,
  'user.moderator':
    /^(?:Made (.*) \((provider_a|provider_b)\) a moderator|Removed (.*) \((provider_a|provider_b)\) as moderator)$/s,
  'settings.update': /^Set (auth_enabled) to (true|false)$/,
  'auth.password': /^Changed the administrator password$/,
  'user.admin':
    /^(?:Made (.*) \((provider_a|provider_b)\) an administrator|Removed (.*) \((provider_a|provider_b)\) as administrator)$/s,
  'user.sessions': /^Signed (.*) \((provider_a|provider_b)\) out everywhere$/s,
  'user.timeout':
    /^(?:Timed out (.*) \((provider_a|provider_b)\) for (\d+) hours|Lifted the time-out of (.*) \((provider_a|provider_b)\))$/s,
  'comment.bulk':
    /^Moderation: (hide|show|delete|dismiss) on (\d+) comments \((?:(\d+) selected|by user (\d+)|by guest ([0-9a-f]+))\)$/,
  'block.add': /^Blocked the address of guest ([0-9a-f]+) \((.*)\) for (\d+) days$/s,
  'block.remove': /^Lifted the block of guest ([0-9a-f]+)$/,
  // Written with its parameters from the first (migration 010 came after parameters); the
  // count alone reads back, the webhooks' events do not.
  'settings.discord': /^Set (\d+) Discord webhook\(s\)$/,
  // Came after entries carried parameters: never read back; the words are not in the summary.
  'settings.words': /^Set (\d+) word\(s\) that hold a comment$/,
  // Issue 26: written with its parameters from the first.
  'streamer.reply_remove': /^Removed the streamer's reply on (.*)$/s,
  // Fifth wave: written with its parameters from the first.
  'comment.pin': /^(Pinned|Unpinned) a comment by (.*)$/s,
  // Fifth wave's staff reviews: written with their parameters from the first.
  'review.save': /^(Abstained from reviewing|Reviewed) (.*)$/s,
  'review.publish': /^Published (\d+) review\(s\) of (.*): (unrated|\d+) → (\d+) \(spread ([\d.]+)\)$/s,
  'review.request': /^Asked for a re-rating of (.*)$/s,
  // Issue 30: written with its parameters from the first; its texts are JSON in the summary.
  'settings.operator':
    /^Set the privacy page's operator to ("(?:[^"\\]|\\.)*"|null), contact ("(?:[^"\\]|\\.)*"|null)$/s,
} satisfies Record<string, RegExp>;

type LegacyAction = keyof typeof SHAPES;
type Reader = { [A in LegacyAction]: (m: RegExpExecArray, details: Details) => Record<string, unknown> };

const provider = (s: string | undefined) => (s === 'provider_b' ? 'provider_b' : 'provider_a');
const s = (value: string | undefined) => value ?? '';
const total = (value: string | undefined) =>
  value === undefined || value === 'unrated' ? null : Number(value);

const READ: Reader = {
  'streamer.add': (m) => ({ name: s(m[1]) }),
  'streamer.edit': (m) => ({ name: s(m[1]), from: total(m[2]), to: Number(m[3]) }),
  'streamer.rate': (m) => ({ name: s(m[1]), from: total(m[2]), to: Number(m[3]) }),
  'streamer.lock': (m) => ({ name: s(m[2]), locked: m[1] === 'Locked' }),
  'streamer.delete': (m) => ({ name: s(m[1]) }),
  'comment.delete': (m) => ({ author: s(m[1]) }),
  'comment.hide': (m) => ({ author: s(m[2]), hidden: m[1] === 'Hid' }),
  'team.create': (m) => ({ team: s(m[1]) }),
  'team.update': (m) => ({ team: s(m[1]) }),
  'team.delete': (m) => ({ team: s(m[1]) }),
  'member.add': (m) => ({
    login: s(m[1]),
    provider: provider(m[2]),
    team: s(m[3]),
    role: m[4] === 'owner' ? 'owner' : 'rater',
  }),
  'member.remove': (m) => ({ login: s(m[1]), provider: provider(m[2]), team: s(m[3]) }),
  'user.ban': (m) => ({ login: s(m[2]), provider: provider(m[3]), banned: m[1] === 'Banned' }),
  'user.moderator': (m) => ({
    login: s(m[1] ?? m[3]),
    provider: provider(m[2] ?? m[4]),
    moderator: m[1] !== undefined,
  }),
  'settings.update': (m) => ({ key: 'auth_enabled', value: m[2] === 'true' }),
  'auth.password': () => ({}),
  'user.admin': (m) => ({
    login: s(m[1] ?? m[3]),
    provider: provider(m[2] ?? m[4]),
    admin: m[1] !== undefined,
  }),
  'user.timeout': (m) => ({
    login: s(m[1] ?? m[4]),
    provider: provider(m[2] ?? m[5]),
    hours: m[3] === undefined ? 0 : Number(m[3]),
  }),
  'user.sessions': (m, d) => ({ login: s(m[1]), provider: provider(m[2]), count: Number(d?.count ?? 0) }),
  'comment.bulk': (m, d) => {
    const ids = (d?.selector as { ids?: unknown } | undefined)?.ids;
    const selector =
      m[4] !== undefined
        ? { user_id: Number(m[4]) }
        : m[5] !== undefined
          ? { guest_tag: m[5] }
          : { ids: Array.isArray(ids) ? ids.map(Number) : [] };
    return { action: MODERATION_ACTIONS.find((a) => a === m[1]) ?? 'hide', count: Number(m[2]), selector };
  },
  'block.add': (m) => ({ guest_tag: s(m[1]), author: s(m[2]), days: Number(m[3]) }),
  'block.remove': (m) => ({ guest_tag: s(m[1]) }),
  'settings.discord': (m) => ({
    webhooks: Array.from({ length: Number(m[1]) }, () => ({ id: null, events: [] })),
  }),
  'streamer.reply_remove': (m) => ({ name: s(m[1]) }),
  'comment.pin': (m) => ({ author: s(m[2]), pinned: m[1] === 'Pinned' }),
  'settings.words': () => ({ words: [] }),
  'review.save': (m) => ({ name: s(m[2]), abstain: m[1] !== 'Reviewed' }),
  'review.publish': (m) => ({
    name: s(m[2]),
    from: total(m[3]),
    to: Number(m[4]),
    reviews: Number(m[1]),
    spread: Number(m[5]),
  }),
  'review.request': (m) => ({ name: s(m[1]) }),
  'settings.operator': (m) => ({ name: json(m[1]), contact: json(m[2]) }),
};

const json = (value: string | undefined): string | null => JSON.parse(value ?? 'null') as string | null;

const isAction = (action: string): action is LegacyAction => Object.hasOwn(SHAPES, action);

function parsedDetails(details: string | null | undefined): Details {
  try {
    const value: unknown = details ? JSON.parse(details) : null;
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The parameters of an old entry as JSON text, or null when its summary does not read back. */
export function legacyParams(action: string, summary: string, details?: string | null): string | null {
  if (!isAction(action)) return null;
  const m = SHAPES[action].exec(summary);
  const read = READ[action] as (m: RegExpExecArray, details: Details) => unknown;
  return m ? JSON.stringify(read(m, parsedDetails(details))) : null;
}
