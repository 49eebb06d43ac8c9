import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Answer, makeAnswer } from '../cache/answer.ts';
import { matchesEtag, sendAnswer } from '../cache/sender.ts';
import { fail } from '../errors.ts';
import { SITE_NAME } from '../lib/site.ts';
import { SCORE_KEYS } from '../shared/rules.ts';
import type { StreamerItem } from '../streamers/schemas.ts';
import { itemsKey, itemsOf, listedItems } from '../streamers/views.ts';
import { Drawer } from './drawer.ts';
import { badgeSchema, cardSchema } from './schemas.ts';

/** Raised when the images' design changes, so no browser or proxy keeps an old one. */
const DESIGN = 'v1';
export const IMAGE_CACHE_CONTROL = 'public, max-age=300';

type Kind = 'card' | 'badge.svg' | 'badge.png';
const TYPES: Record<Kind, string> = {
  card: 'image/png',
  'badge.svg': 'image/svg+xml',
  'badge.png': 'image/png',
};

/** What an image shows of a streamer: its ETag names exactly that (and the design). */
function etagOf(kind: Kind, item: StreamerItem): string {
  const shown = [
    DESIGN,
    kind,
    item.name,
    item.platform,
    item.verified,
    ...SCORE_KEYS.map((k) => item.r[k]),
  ].join('\u0000');
  return `"${createHash('sha256').update(shown).digest('base64url').slice(0, 27)}"`;
}

/** The image an address asks for (the query plays no part), or null when it names none. */
function imageOf(path: string): { kind: Kind; id: string } | null {
  const card = /^\/s\/(\d{1,15})\/card\.png$/.exec(path);
  if (card) return { kind: 'card', id: card[1] ?? '' };
  const badge = /^\/badge\/(\d{1,15})\.(svg|png)$/.exec(path);
  return badge ? { kind: badge[2] === 'svg' ? 'badge.svg' : 'badge.png', id: badge[1] ?? '' } : null;
}

/**
 * Share cards and badges (DECISIONS.md "Reaching out"), for streamers in the Public view only.
 * Each image is drawn once per change of what it shows and kept in the answer cache under what
 * it shows (its ETag), never under its address: a repeat visit gets 304 without drawing or
 * reading more than the kept public list, and no address, however long its query, keeps more.
 */
export const imageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const drawer = new Drawer();
  app.addHook('onClose', async () => drawer.stop());
  const byId = new WeakMap<StreamerItem[], Map<number, StreamerItem>>();
  const etags = new WeakMap<StreamerItem, Partial<Record<Kind, string>>>();

  const find = (items: StreamerItem[], raw: string): StreamerItem | undefined => {
    let index = byId.get(items);
    if (!index) byId.set(items, (index = new Map(items.map((s) => [s.id, s]))));
    return index.get(Number(raw));
  };
  const etagFor = (kind: Kind, item: StreamerItem): string => {
    let known = etags.get(item);
    if (!known) etags.set(item, (known = {}));
    return (known[kind] ??= etagOf(kind, item));
  };

  const answer = async (request: FastifyRequest, reply: FastifyReply, kind: Kind, raw: string) => {
    const item = find(itemsOf(await listedItems(app.ctx, 'public')), raw);
    if (!item) throw fail('streamer_not_found');
    const etag = etagFor(kind, item);
    const key = `image:${etag}`;
    const options = { type: TYPES[kind], cacheControl: IMAGE_CACHE_CONTROL, version: null, etag };
    // A client that has this picture is told so without drawing it (the answer of no bytes
    // gets the same 304 as the drawn one would).
    const kept = app.answers.peek(key);
    if (!kept && matchesEtag(request.headers['if-none-match'], options.etag))
      return sendAnswer(request, reply, makeAnswer(Buffer.alloc(0), options));
    const image =
      kept ??
      (await app.answers.get(key, async () =>
        makeAnswer(
          await drawer.draw({
            kind,
            name: item.name,
            platform: item.platform,
            r: item.r,
            siteName: SITE_NAME,
            verified: item.verified,
          }),
          options,
        ),
      ));
    return sendAnswer(request, reply, image);
  };

  // Images drawn for what the current public list shows, from memory before routing.
  const early = (_req: unknown, url: string): Answer | undefined => {
    const image = imageOf(url.split('?')[0] ?? '');
    const list = image && app.answers.peek(itemsKey('public'));
    const item = list && find(list.value as StreamerItem[], image.id);
    return item ? app.answers.peek(`image:${etagFor(image.kind, item)}`) : undefined;
  };
  app.earlyAnswers.prefixed('/s/', { route: '/s/:id/card.png', find: early });
  app.earlyAnswers.prefixed('/badge/', { route: '/badge/:file', find: early });

  const options = { config: { guard: 'public' as const, session: false as const } };

  app.get('/s/:id/card.png', { ...options, schema: cardSchema }, async (request, reply) => {
    if (!/^\d{1,15}$/.test(request.params.id)) throw fail('streamer_not_found');
    return answer(request, reply, 'card', request.params.id);
  });

  app.get('/badge/:file', { ...options, schema: badgeSchema }, async (request, reply) => {
    const m = /^(\d{1,15})\.(svg|png)$/.exec(request.params.file);
    if (!m) throw fail('streamer_not_found');
    return answer(request, reply, m[2] === 'svg' ? 'badge.svg' : 'badge.png', m[1] ?? '');
  });
};
