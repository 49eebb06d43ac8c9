import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { fail } from '../errors.ts';
import { errors, FlagDoc, IdDoc, Input, Param } from '../lib/schemas.ts';
import { flag, parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { clientNetwork } from '../plugins/guest-tag.ts';
import { ANONYMOUS, type Viewer } from '../plugins/viewer.ts';
import { eventsAfter, missedEvents, replayable } from './log.ts';
import { RANKED, sentData, type Sight } from './ranking.ts';
import { sseEvent } from './sse.ts';
import { EventStreams, type Refusal, STREAM_LIMITS } from './streams.ts';
import { EventTail } from './tail.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's open event streams (events/streams.ts). */
    eventStreams: EventStreams;
    /** This instance's reader of the event log (events/tail.ts). */
    eventTail: EventTail;
  }
}

/** A `Last-Event-ID` as the streams send them: a decimal id, else null. */
const lastIdOf = (value: unknown): number | null =>
  typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : null;

const eventsSchema = {
  summary:
    'Live updates as server-sent events: with `streamer_id`, `comment` and `comment_removed` `{id, ' +
    'streamer_id}`, `rating` `{streamer_id}` and `live` `{streamer_id, status, viewers}` (`viewers` as the ' +
    "streamer's item has it: null when not live or not known); with `ranking=1`, `rating` and `live` " +
    'of every streamer in the Public view (staff, a team member or the password administrator: of every one they may see) ' +
    'and `rating` of one that leaves it (a reconnection that ' +
    'missed one, or a stream whose instance cannot tell which are in it, gets `reset`); for a ' +
    'signed-in session, `notification` `{unread}`. Ids, never text; a `:` line at least every 30 s; ' +
    `at most ${STREAM_LIMITS.perAddress} open streams per client address and ${STREAM_LIMITS.perNetwork} per ` +
    'network (IPv4 /24, IPv6 /56), else 429; 503 while the instance holds as many streams as it takes; ' +
    `the server ends a stream after ${STREAM_LIMITS.lifetimeMs / 60_000} minutes (reconnect with ` +
    '`Last-Event-ID`). Every event carries an SSE ' +
    '`id`; a reconnection with `Last-Event-ID` first gets the events it missed (at most 10 minutes ' +
    'or 1,000 events back), else one `reset` `{}`',
  querystring: Input({
    streamer_id: Param(IdDoc('Events of this streamer')),
    ranking: Param(FlagDoc("The ranking's events: `rating` and `live` of every streamer in the Public view")),
  }),
  response: {
    200: {
      description: 'An event stream',
      content: { 'text/event-stream': { schema: Type.String({ description: 'Server-sent events' }) } },
    },
    ...errors(404, 429, 503),
  },
};

/** What the streams ask of the features (app.ts passes them: events/ imports no feature). */
export interface EventSources {
  /** Open streams in all (streamsWithin the server's connection limit). */
  maxStreams: number;
  /** A user's unread count (notifications). */
  unread: (userId: number) => Promise<number>;
  /**
   * Which of these streamers this caller may see (streamers): a streamer's events are asked by
   * who may see it, and the ranking's streams hear those a visitor may see.
   */
  streamersVisible: (viewer: Viewer, streamerIds: number[]) => Promise<ReadonlySet<number>>;
  /** Whether this caller may see streamers outside the Public view (staff, a team's member): no query. */
  seesBeyondPublic: (viewer: Viewer) => boolean;
}

/**
 * A stream the limits refuse: 429 past an address's or a network's share, 503 when the app
 * holds as many as it takes in all (the site answers everything else).
 */
function refuse(refusal: Refusal): void {
  if (refusal === 'total')
    throw fail('service_unavailable', { 'retry-after': String(STREAM_LIMITS.retryMs / 1000) });
  if (refusal !== null) throw fail('too_many_requests', { 'retry-after': '60' });
}

/** DECISIONS.md "Fourth wave" → "Live updates": `GET /api/events`, for anyone. */
const events: FastifyPluginAsyncTypebox<EventSources> = async (
  app,
  { unread: unreadCount, streamersVisible, seesBeyondPublic, maxStreams },
) => {
  const tail = await EventTail.start(app.database, app.clock, app.log.child({ module: 'events' }));
  const streams = new EventStreams(
    tail,
    app.clock,
    unreadCount,
    (cookieId) => app.sessionUserOf(cookieId),
    (ids) => streamersVisible(ANONYMOUS, ids),
    { ...STREAM_LIMITS, total: maxStreams },
  );
  app.decorate('eventTail', tail);
  app.decorate('eventStreams', streams);
  app.metrics?.watchStreams(() => streams.size);
  // Before the server waits for its connections: open streams would hold it for good.
  app.addHook('preClose', async () => streams.close());
  app.addHook('onClose', async () => tail.stop());

  /**
   * What the ranking's stream of someone who sees beyond the Public view hears of the streamers
   * outside it (events/ranking.ts): those its session's viewer may see, asked again for each
   * page (an account's roles and teams, the shared password's flag), while the session is still
   * the one of whoever opened it (signed out, banned, timed out, the password changed: none).
   */
  const sightOf =
    (cookieId: string, userId: number | null): Sight =>
    async (ids) => {
      const viewer = await app.sessionViewerOf(cookieId);
      return (viewer.user?.id ?? null) === userId ? streamersVisible(viewer, ids) : new Set<number>();
    };

  /**
   * What a reconnecting stream missed (DECISIONS.md "Live updates that resume"): its events
   * after its last id up to the tail's cursor, each with its id, then an `id:` of the cursor so
   * that its next reconnection starts there; or one `reset` when the id is too old, too far
   * back or was never sent. The ranking's stream is not replayed its streamers' changes: when it
   * missed one, `reset`, and its page loads the list again.
   */
  const catchUp =
    (
      lastId: number | null,
      cursor: number,
      who: { streamerId: number | null; userId: number | null; ranking: boolean },
    ) =>
    async (): Promise<Buffer[]> => {
      const reset = [sseEvent(cursor, 'reset', '{}')];
      if (lastId === null || lastId > cursor || !(await replayable(app.db, lastId, app.clock.now())))
        return reset;
      if (who.ranking) {
        const [change] = await eventsAfter(app.db, lastId, 1, [...RANKED]);
        if (change && change.id <= cursor) return reset;
      }
      const missed = await missedEvents(app.db, lastId, cursor, who);
      const unread =
        missed.some((e) => e.type === 'notification') && who.userId !== null
          ? await unreadCount(who.userId)
          : 0;
      return [
        ...missed.map((e) =>
          e.type === 'notification'
            ? sseEvent(e.id, 'notification', JSON.stringify({ unread }))
            : sseEvent(e.id, e.type, sentData(e)),
        ),
        ...(cursor > lastId ? [Buffer.from(`id: ${cursor}\n:\n\n`)] : []),
      ];
    };

  app.get('/api/events', { config: { guard: 'public' }, schema: eventsSchema }, async (request, reply) => {
    const address = clientNetwork(request.ip);
    refuse(streams.refusal(address));
    const streamerId = parseId(request.query.streamer_id);
    // A streamer the caller may not see (outside the Public view, for a visitor) is unknown to it.
    if (streamerId !== null && !(await streamersVisible(request.viewer, [streamerId])).has(streamerId)) {
      throw fail('streamer_not_found');
    }
    const userId = request.viewer.user?.id ?? null;
    const cookieId = userId === null ? null : request.session.cookieId;
    const ranking = flag(request.query.ranking);
    // Signed in, or the shared password's administrator (no account: the session alone says who).
    const session = request.session.cookieId;
    const sees =
      ranking && session !== null && seesBeyondPublic(request.viewer) ? sightOf(session, userId) : null;
    // The address may have opened another meanwhile: asked again just before taking it.
    refuse(streams.refusal(address));
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...app.securityHeaders.resource,
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
    });
    // HEAD (Fastify's automatic twin) learns the head and no more.
    if (request.method === 'HEAD') return void res.end();
    res.flushHeaders();
    // A stream may stay quiet longer than the server's idle timeout: the heartbeat keeps it moving.
    request.raw.socket.setTimeout(0);
    const who = { address, streamerId, userId, cookieId, ranking, sees };
    const header = request.headers['last-event-id'];
    // The stream and its start are taken together: what the log brings after it goes live.
    const cursor = tail.cursor;
    streams.open(res, who, cursor, header === undefined ? undefined : catchUp(lastIdOf(header), cursor, who));
  });

  methodNotAllowed(app, '/api/events', ['GET']);
};

/** Registered as the app's own (not encapsulated): `app.eventStreams` is the app's. */
export const eventRoutes = fp(events, { name: 'events', dependencies: ['answer-cache'] });
