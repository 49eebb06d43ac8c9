import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import { fail } from '../errors.ts';
import { errors, IdDoc, Input, Param } from '../lib/schemas.ts';
import { parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { unreadCount } from '../notifications/queries.ts';
import { clientNetwork } from '../plugins/guest-tag.ts';
import { streamerExists } from '../streamers/queries.ts';
import { EventStreams, STREAM_LIMITS } from './streams.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's open event streams (events/streams.ts). */
    eventStreams: EventStreams;
  }
}

const eventsSchema = {
  summary:
    'Live updates as server-sent events: with `streamer_id`, `comment` and `comment_removed` `{id, ' +
    'streamer_id}`, `rating` `{streamer_id}` and `live` `{streamer_id, status, viewers}`; for a ' +
    'signed-in session, `notification` `{unread}`. Ids, never text; a `:` line at least every 30 s; ' +
    `at most ${STREAM_LIMITS.perAddress} open streams per client address`,
  querystring: Input({ streamer_id: Param(IdDoc('Events of this streamer')) }),
  response: {
    200: {
      description: 'An event stream',
      content: { 'text/event-stream': { schema: Type.String({ description: 'Server-sent events' }) } },
    },
    ...errors(404, 429),
  },
};

/** DECISIONS.md "Fourth wave" → "Live updates": `GET /api/events`, for anyone. */
const events: FastifyPluginAsyncTypebox = async (app) => {
  const streams = new EventStreams(app.liveEvents, app.clock, (userId) => unreadCount(app.db, userId));
  app.decorate('eventStreams', streams);
  // Before the server waits for its connections: open streams would hold it for good.
  app.addHook('preClose', async () => streams.close());

  app.get('/api/events', { config: { guard: 'public' }, schema: eventsSchema }, async (request, reply) => {
    const address = clientNetwork(request.ip);
    if (!streams.mayOpen(address)) throw fail('too_many_requests', { 'retry-after': '60' });
    const streamerId = parseId(request.query.streamer_id);
    if (streamerId !== null && !(await streamerExists(app.db, streamerId))) throw fail('streamer_not_found');
    // The address may have opened another meanwhile: asked again just before taking it.
    if (!streams.mayOpen(address)) throw fail('too_many_requests', { 'retry-after': '60' });
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
    streams.open(res, { address, streamerId, userId: request.viewer.user?.id ?? null });
  });

  methodNotAllowed(app, '/api/events', ['GET']);
};

/** Registered as the app's own (not encapsulated): `app.eventStreams` is the app's. */
export const eventRoutes = fp(events, { name: 'events', dependencies: ['answer-cache'] });
