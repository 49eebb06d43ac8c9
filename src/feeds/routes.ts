import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { makeAnswer } from '../cache/answer.ts';
import { sendAnswer } from '../cache/sender.ts';
import { fail } from '../errors.ts';
import { errors } from '../lib/schemas.ts';
import { SITE_NAME } from '../lib/site.ts';
import { commentsFeedPath, FEED_PATH, scoreSum, streamerPath } from '../shared/rules.ts';
import { itemsOf, renderedView } from '../streamers/views.ts';
import { atom } from './atom.ts';
import { feedComments, ratingEvents } from './queries.ts';

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
/** Readers ask often: each asks again by ETag, and a 304 costs nothing. */
const FEED_CACHE_CONTROL = 'public, no-cache';

const xml = {
  description: 'An Atom 1.0 feed',
  content: { 'application/atom+xml': { schema: Type.String({ description: 'Atom 1.0' }) } },
};

/** DECISIONS.md "Fourth wave" → "Feeds": kept in the answer cache, sent by the one sender. */
export const feedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const base = app.config.baseUrl;
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
    async (request, reply) => {
      const answer = await app.answers.get('feed:ratings', async (version) => {
        const entries = (await ratingEvents(app.db)).map((e) => ({
          id: `${base}${streamerPath(e.streamer_id)}#rating-${e.id}`,
          title: `${e.name}: ${e.sum}/70`,
          link: base + streamerPath(e.streamer_id, e.name),
          updated: e.at,
        }));
        const body = atom({
          id: `${base}${FEED_PATH}`,
          title: SITE_NAME,
          link: `${base}/`,
          self: base + FEED_PATH,
          entries,
        });
        return makeAnswer(body, { type: ATOM_TYPE, cacheControl: FEED_CACHE_CONTROL, version });
      });
      return sendAnswer(request, reply, answer);
    },
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
      const id = Number(request.params.id);
      const item = itemsOf(await renderedView(app.ctx, 'public')).find((s) => s.id === id);
      if (!item) throw fail('streamer_not_found');
      const answer = await app.answers.get(`feed:comments:${id}`, async (version) => {
        const page = base + streamerPath(id, item.name);
        const entries = (await feedComments(app.db, id)).map((c) => ({
          id: `${base}${streamerPath(id)}#comment-${c.id}`,
          title: `${c.display_name ?? c.author}: ${item.name}`,
          link: `${page}#c${c.id}`,
          updated: c.edited_at ?? c.created_at,
          published: c.created_at,
          author: c.display_name ?? c.author,
          text: c.body,
        }));
        const title = `${item.name} (${scoreSum(item.r)}/70) – ${SITE_NAME}`;
        const self = base + commentsFeedPath(id);
        return makeAnswer(atom({ id: self, title, link: page, self, entries }), {
          type: ATOM_TYPE,
          cacheControl: FEED_CACHE_CONTROL,
          version,
        });
      });
      return sendAnswer(request, reply, answer);
    },
  );
};
