import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendAnswer } from '../cache/sender.ts';
import { fail } from '../errors.ts';
import { errors } from '../lib/schemas.ts';
import { FEED_PATH } from '../shared/rules.ts';
import { commentsFeed, ratingsFeed } from './feeds.ts';

const xml = {
  description: 'An Atom 1.0 feed',
  content: { 'application/atom+xml': { schema: Type.String({ description: 'Atom 1.0' }) } },
};

/** DECISIONS.md "Fourth wave" → "Feeds": kept in the answer cache, sent by the one sender. */
export const feedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const options = { config: { guard: 'public' as const, session: false as const } };

  app.get(
    FEED_PATH,
    {
      ...options,
      schema: {
        summary: 'The 50 newest rating events (a streamer enters the Public view or its total changes), Atom',
        response: { 200: xml, 304: { description: 'Not modified (If-None-Match)' } },
      },
    },
    async (request, reply) => sendAnswer(request, reply, await ratingsFeed(app.ctx)),
  );

  app.get(
    '/s/:id/comments.xml',
    {
      ...options,
      schema: {
        summary: "A streamer's 50 newest visible comments, Atom (Public view only, else 404)",
        params: Type.Object({ id: Type.String({ maxLength: 200 }) }),
        response: { 200: xml, 304: { description: 'Not modified (If-None-Match)' }, ...errors(404) },
      },
    },
    async (request, reply) => {
      if (!/^\d{1,15}$/.test(request.params.id)) throw fail('streamer_not_found');
      const answer = await commentsFeed(app.ctx, Number(request.params.id));
      return sendAnswer(request, reply, answer);
    },
  );
};
