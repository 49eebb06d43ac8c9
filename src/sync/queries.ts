import type { LiveEvent } from '../db/event-log.ts';
import type { Db, SyncStateTable } from '../db/schema.ts';
import { liveEmbed } from '../discord/events.ts';
import { type EventEmbed, tellDiscord } from '../discord/queries.ts';
import { inIds } from '../db/dialect.ts';
import { type RowUpdate, updateManyQueries } from '../db/update-many.ts';
import { writeTogether } from '../db/write-together.ts';
import { singleLine } from '../lib/input.ts';
import { LIMITS, type Provider, channelOf } from '../shared/rules.ts';
import { IN_PUBLIC_VIEW } from '../catalogue/public-view.ts';
import { type Channel, channelKey, channelName, learntAccountId } from '../catalogue/speaks-for.ts';
import { checkWrites, cleanViewers, type Sighting, startOf } from '../history/record.ts';
import type { BatchAnswer } from './provider.ts';

/** A streamer as live sync checks it. */
export interface Target {
  id: number;
  channel: string;
  /** Its avatar or its channel's account id (issue 26) is not known yet. */
  needsProfile: boolean;
  /** Its channel's account id as learnt so far (speaks-for.ts), or null. */
  accountId: string | null;
}

const CHANNEL_COLUMN = { provider_a: 'provider_a', provider_b: 'kick_name' } as const;

/** Streamers whose platform is `provider`, with their channel there, in id order. */
export async function syncTargets(db: Db, provider: Provider): Promise<Target[]> {
  const rows = await db
    .selectFrom('streamers')
    .select(['id', 'name', 'platform', 'provider_a', 'kick_name', 'avatar', 'account_id', 'account_channel'])
    .where('platform', '=', provider)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    channel: channelOf(r.name, r[CHANNEL_COLUMN[provider]]),
    needsProfile: r.avatar === '' || learntAccountId(r) === null,
    accountId: learntAccountId(r),
  }));
}

/** The streamer columns live sync writes, as updateMany casts them. */
const SYNCED = {
  synced_at: 'text',
  avatar: 'text',
  account_id: 'text',
  account_channel: 'text',
  status: 'text',
  game: 'text',
  title: 'text',
  viewers: 'integer',
  live_since: 'text',
  sync_misses: 'integer',
} as const;

/**
 * Applies one successful batch to its streamers, re-reading them inside the transaction (an
 * administrator may have changed one meanwhile). Live on the first check that shows it;
 * offline only on the second check in a row that does not. Returns how many were checked.
 * The rule is decided here per streamer; the writes are batched: one statement per kind of
 * write for the whole batch (updateMany, the Discord queue, the stream history), and on
 * PostgreSQL those statements as one (db/write-together.ts).
 */
export async function applyBatch(
  trx: Db,
  provider: Provider,
  targets: Target[],
  answer: BatchAnswer,
  now: string,
  /** Filled with the live events of what changed (db/event-log.ts), for the caller to publish. */
  events: LiveEvent[] = [],
): Promise<number> {
  const rows = await trx
    .selectFrom('streamers')
    .select([
      'viewers',
      'id',
      'name',
      'platform',
      'provider_a',
      'kick_name',
      'status',
      'live_since',
      'sync_misses',
      'account_id',
      'account_channel',
      IN_PUBLIC_VIEW.as('in_public_view'),
    ])
    .where('platform', '=', provider)
    .where(
      inIds(
        trx,
        'id',
        targets.map((t) => t.id),
      ),
    )
    .execute();
  const asked = new Set(targets.map((t) => t.channel));
  let checked = 0;
  const seenLive: Sighting[] = [];
  const wentOffline: number[] = [];
  const updates: RowUpdate[] = [];
  const announced: EventEmbed[] = [];
  for (const row of rows) {
    const channel = channelOf(row.name, row[CHANNEL_COLUMN[provider]]);
    if (!asked.has(channel)) continue; // renamed since the batch was made: the next round checks it
    checked++;
    const avatar = answer.avatars.get(channel);
    const seen = answer.live.get(channel);
    const common = { synced_at: now, ...(avatar === undefined ? {} : { avatar }), ...learnt(row, answer) };
    const misses = seen ? 0 : row.sync_misses + 1;
    // The offline rule, once: it ends the streamer's live status and its stream alike.
    const offline = !seen && misses >= 2;
    const game = seen ? singleLine(seen.game, LIMITS.game) : '';
    const title = seen ? singleLine(seen.title, LIMITS.title) : '';
    const viewers = seen ? cleanViewers(seen.viewers) : 0;
    if (seen) seenLive.push({ streamerId: row.id, game, title, viewers, since: seen.since });
    // Its stream ends on the check that makes it offline (an open stream had a live check since).
    if (offline && row.sync_misses < 2) wentOffline.push(row.id);
    const update = seen
      ? {
          ...common,
          status: 'live' as const,
          game,
          title,
          viewers,
          // Without a start time from the provider: since this service first saw it live.
          live_since:
            seen.since !== null
              ? startOf(seen.since, now)
              : row.status === 'live' && row.live_since !== null
                ? row.live_since
                : now,
          sync_misses: 0,
        }
      : offline
        ? { ...common, status: 'offline' as const, viewers: null, live_since: null, sync_misses: misses }
        : { ...common, sync_misses: misses };
    updates.push({ id: row.id, set: update });
    const status = 'status' in update ? update.status : row.status;
    const shown = 'viewers' in update ? update.viewers : row.viewers;
    if (status !== row.status || shown !== row.viewers) {
      events.push({ type: 'live', streamer_id: row.id, status, viewers: shown });
    }
    // Discord hears of the Public view's streamers only, as the live notifications (issue 45, week 18).
    if (seen && row.status !== 'live' && Boolean(row.in_public_view)) {
      announced.push(liveEmbed({ id: row.id, name: row.name, platform: provider }, { game, title }, now));
    }
  }
  tellDiscord(trx, 'live', announced);
  // The streamers' rows and the history's writes: on PostgreSQL one statement (one round trip).
  await writeTogether(trx, [
    ...updateManyQueries(trx, 'streamers', SYNCED, updates),
    ...(await checkWrites(trx, seenLive, wentOffline, now)),
  ]);
  return checked;
}

/**
 * The channel's account id, learnt the first time an answer carries it for the streamer's
 * current channel (issue 26). Once learnt it stays: an answer with another id for the same
 * channel means the login now belongs to another account (a rename, a re-registered login),
 * which must not take the page over (docs/decisions.md "Issue 26"). When the administrator
 * gives the streamer another channel, the id learnt for the old one no longer counts and the
 * next check learns the new one.
 */
function learnt(row: Channel, answer: BatchAnswer): { account_id?: string; account_channel?: string } {
  const id = answer.ids.get(channelName(row));
  if (id === undefined || learntAccountId(row) !== null) return {};
  return { account_id: id, account_channel: channelKey(row) };
}

async function upsertState(db: Db, provider: Provider, values: Partial<Omit<SyncStateTable, 'provider'>>) {
  await db
    .insertInto('sync_state')
    .values({ provider, checked: 0, ...values })
    .onConflict((oc) => oc.column('provider').doUpdateSet(values))
    .execute();
}

export const recordOk = (db: Db, provider: Provider, now: string) =>
  upsertState(db, provider, { last_ok: now });

export const recordError = (db: Db, provider: Provider, message: string, now: string) =>
  upsertState(db, provider, { last_error: message, last_error_at: now });

export const recordRound = (db: Db, provider: Provider, checked: number, now: string) =>
  upsertState(db, provider, { checked, cycle_at: now });

export async function readStates(db: Db) {
  const [states, counts] = await Promise.all([
    db.selectFrom('sync_state').selectAll().execute(),
    db
      .selectFrom('streamers')
      .select(['platform', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('platform')
      .execute(),
  ]);
  return {
    state: new Map(states.map((s) => [s.provider, s])),
    streamers: new Map(counts.map((c) => [c.platform, Number(c.n)])),
  };
}
