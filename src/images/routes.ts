import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Answer, makeAnswer } from '../cache/answer.ts';
import { matchesEtag, sendAnswer } from '../cache/sender.ts';
import { fail } from '../errors.ts';
import { SITE_NAME } from '../shared/site.ts';
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

/** The addresses of the images, with or without a query (which plays no part). */
const CARD_ADDRESS = /^\/s\/(\d{1,15})\/card\.png(?:\?|$)/;
const BADGE_ADDRESS = /^\/badge\/(\d{1,15})\.(svg|png)(?:\?|$)/;

/** What an image shows, named: its ETag, and its key in the answer cache. */
interface Shown {
  etag: string;
  key: string;
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
  const shown = new WeakMap<StreamerItem, Partial<Record<Kind, Shown>>>();
  const publicItems = itemsKey('public');

  const find = (items: StreamerItem[], raw: string): StreamerItem | undefined => {
    let index = byId.get(items);
    if (!index) byId.set(items, (index = new Map(items.map((s) => [s.id, s]))));
    return index.get(Number(raw));
  };
  // Made once per item and kind: a repeat request builds no string.
  const shownOf = (kind: Kind, item: StreamerItem): Shown => {
    let known = shown.get(item);
    if (!known) shown.set(item, (known = {}));
    if (!known[kind]) {
      const etag = etagOf(kind, item);
      known[kind] = { etag, key: `image:${etag}` };
    }
    return known[kind];
  };

  const answer = async (request: FastifyRequest, reply: FastifyReply, kind: Kind, raw: string) => {
    const item = find(itemsOf(await listedItems(app.ctx, 'public')), raw);
    if (!item) throw fail('streamer_not_found');
    const { etag, key } = shownOf(kind, item);
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
  const kept = (kind: Kind, id: string | undefined): Answer | undefined => {
    const list = app.answers.peek(publicItems);
    const item = list && find(list.value as StreamerItem[], id ?? '');
    return item ? app.answers.peek(shownOf(kind, item).key) : undefined;
  };
  app.earlyAnswers.prefixed('/s/', {
    route: '/s/:id/card.png',
    find: (_req, url) => {
      const card = CARD_ADDRESS.exec(url);
      return card ? kept('card', card[1]) : undefined;
    },
  });
  app.earlyAnswers.prefixed('/badge/', {
    route: '/badge/:file',
    find: (_req, url) => {
      const badge = BADGE_ADDRESS.exec(url);
      return badge ? kept(badge[2] === 'svg' ? 'badge.svg' : 'badge.png', badge[1]) : undefined;
    },
  });

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
