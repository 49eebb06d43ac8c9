import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchesEtag } from '../cache/send.ts';
import { fail } from '../errors.ts';
import { SITE_NAME } from '../lib/site.ts';
import { SCORE_KEYS } from '../shared/rules.ts';
import type { StreamerItem } from '../streamers/schemas.ts';
import { renderedView } from '../streamers/views.ts';
import { Drawer } from './drawer.ts';
import { ImageCache } from './image-cache.ts';
import type { ReadyImages } from './ready.ts';
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
  const shown = [DESIGN, kind, item.name, item.platform, ...SCORE_KEYS.map((k) => item.r[k])].join('\u0000');
  return `"${createHash('sha256').update(shown).digest('base64url').slice(0, 27)}"`;
}

/**
 * Share cards and badges (DECISIONS.md "Reaching out"), for streamers in the Public view only.
 * Each image is drawn once per change of what it shows and kept by its ETag; a repeat visit
 * gets 304 without drawing or reading more than the cached public list.
 */
export const imageRoutes: FastifyPluginAsyncTypebox<{ ready: ReadyImages }> = async (app, { ready }) => {
  const images = new ImageCache(32 * 2 ** 20);
  const drawer = new Drawer();
  app.addHook('onClose', async () => drawer.stop());
  const byId = new WeakMap<StreamerItem[], Map<number, StreamerItem>>();
  const etags = new WeakMap<StreamerItem, Partial<Record<Kind, string>>>();

  const publicItem = async (raw: string): Promise<{ item: StreamerItem; version: number }> => {
    if (!/^\d{1,15}$/.test(raw)) throw fail('streamer_not_found');
    const list = await renderedView(app, 'public');
    const items = list.value ?? [];
    let index = byId.get(items);
    if (!index) byId.set(items, (index = new Map(items.map((s) => [s.id, s]))));
    const item = index.get(Number(raw));
    if (!item) throw fail('streamer_not_found');
    return { item, version: list.version };
  };

  const answer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    kind: Kind,
    { item, version }: { item: StreamerItem; version: number },
  ) => {
    let known = etags.get(item);
    if (!known) etags.set(item, (known = {}));
    const etag = (known[kind] ??= etagOf(kind, item));
    void reply.header('cache-control', IMAGE_CACHE_CONTROL).header('etag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    const bytes = await images.get(etag, () =>
      drawer.draw({ kind, name: item.name, platform: item.platform, r: item.r, siteName: SITE_NAME }),
    );
    // Repeats of this address are answered before routing while the content stays the same.
    ready.keep(request.url, version, etag, TYPES[kind], IMAGE_CACHE_CONTROL, bytes);
    return reply.header('content-type', TYPES[kind]).send(bytes);
  };

  const options = { config: { guard: 'public' as const, session: false as const } };

  app.get('/s/:id/card.png', { ...options, schema: cardSchema }, async (request, reply) =>
    answer(request, reply, 'card', await publicItem(request.params.id)),
  );

  app.get('/badge/:file', { ...options, schema: badgeSchema }, async (request, reply) => {
    const m = /^(\d{1,15})\.(svg|png)$/.exec(request.params.file);
    if (!m) throw fail('streamer_not_found');
    const item = await publicItem(m[1] ?? '');
    return answer(request, reply, m[2] === 'svg' ? 'badge.svg' : 'badge.png', item);
  });
};
