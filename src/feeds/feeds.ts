import { type Answer, makeAnswer } from '../cache/answer.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { SITE_NAME } from '../shared/site.ts';
import { commentsFeedPath, FEED_PATH, scoreSum, streamerPath } from '../shared/rules.ts';
import { itemsOf, listedItems } from '../streamers/views.ts';
import { atom } from './atom.ts';
import { feedComments, ratingEvents } from './queries.ts';

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
/** Readers ask often: each asks again by ETag, and a 304 costs nothing. */
const FEED_CACHE_CONTROL = 'public, no-cache';

/** The 50 newest rating events as Atom, made once per change of the content and kept. */
export function ratingsFeed(ctx: AppContext): Promise<Answer> {
  const base = ctx.config.baseUrl;
  return ctx.answers.get('feed:ratings', async (version) => {
    const entries = (await ratingEvents(ctx.db)).map((e) => ({
      id: `${base}${streamerPath(e.streamer_id)}#rating-${e.id}`,
      title: `${e.name}: ${e.sum}/70`,
      link: base + streamerPath(e.streamer_id, e.name),
      updated: e.at,
      // RFC 4287 4.1.1: an entry of a feed with no author of its own names one; ratings are the site's.
      author: SITE_NAME,
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
}

/** A Public view streamer's 50 newest visible comments as Atom (else 404), kept like the list. */
export async function commentsFeed(ctx: AppContext, id: number): Promise<Answer> {
  const base = ctx.config.baseUrl;
  const item = itemsOf(await listedItems(ctx, 'public')).find((s) => s.id === id);
  if (!item) throw fail('streamer_not_found');
  return ctx.answers.get(`feed:comments:${id}`, async (version) => {
    const page = base + streamerPath(id, item.name);
    const entries = (await feedComments(ctx.db, id)).map((c) => ({
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
}
