import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type Answer, makeAnswer } from '../cache/answer.ts';
import { sendAnswer } from '../cache/sender.ts';
import { ERRORS } from '../errors.ts';
import { Param, StringEnum } from '../lib/schemas.ts';
import type { StreamerItem } from '../streamers/schemas.ts';
import { itemsKey, itemsOf, listedItems } from '../streamers/views.ts';
import { channelIndex, channelKeyOf, chatLine, type Language, LANGUAGES, languageOf } from './line.ts';

const TEXT = 'text/plain; charset=utf-8';
/** Addresses whose line the early path remembers, per public list. */
const KEYS_KEPT = 1_000;
/** Bots ask at every command: a minute's reuse, and the line follows a new rating within one. */
export const LINE_CACHE_CONTROL = 'public, max-age=60';

const text = (description: string) => ({
  description,
  content: { 'text/plain': { schema: Type.String({ description }) } },
});

const lineSchema = {
  summary: "A streamer's line for chat bots' fetch commands: the total, the audience score, the page",
  description:
    '`<name>: <total>/70 · publikum <score>/10 (<votes> hlasů) · <page address>` (English with `lang=en`), at ' +
    'most 400 characters; the channel is folded (lower case, no white space). Public view only: else 404 with ' +
    'the line `Streamer not found`. `Cache-Control: public, max-age=60`, an ETag, 304 to If-None-Match.',
  params: Type.Object({
    platform: Type.String({ maxLength: 200, description: '`twitch` or `kick`' }),
    file: Type.String({ maxLength: 300, description: '`<channel>.txt`' }),
  }),
  querystring: Type.Object({
    lang: Param(StringEnum(LANGUAGES, { description: 'The line in English with `en`; Czech otherwise' })),
  }),
  response: {
    200: text('One line'),
    304: { description: 'Not modified (If-None-Match)' },
    404: text('`Streamer not found`'),
  },
};

/** The channel a bot's `<channel>.txt` names, or null. */
const channelOfFile = (file: string): string | null => (file.endsWith('.txt') ? file.slice(0, -4) : null);

/** A path before routing as the route reads it (`/bot/<platform>/<file>`, decoded), or null. */
function paramsOf(path: string): { platform: string; file: string } | null {
  const m = /^\/bot\/([^/]+)\/([^/]+)$/.exec(path);
  if (!m) return null;
  try {
    return { platform: decodeURIComponent(m[1] ?? ''), file: decodeURIComponent(m[2] ?? '') };
  } catch {
    return null;
  }
}

/**
 * DECISIONS.md "A line for the chat", served as the share cards and badges are: found in the
 * kept public list, each line made once per change of the content and kept in the answer
 * cache under its streamer and language (never under the address a bot typed), sent by the
 * one sender, and answered before routing while it is kept.
 */
export const chatLineRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const notFound = makeAnswer(ERRORS.streamer_not_found[1], {
    type: TEXT,
    cacheControl: LINE_CACHE_CONTROL,
    version: null,
    status: 404,
    etag: null,
  });
  // Addresses no route reads (too long, not UTF-8) name no streamer either: the same 404 line.
  app.strayAnswers.set('/bot/', (request, reply) => sendAnswer(request, reply, notFound));
  const indexes = new WeakMap<StreamerItem[], Map<string, StreamerItem>>();
  const find = (items: StreamerItem[], platform: string, file: string): StreamerItem | undefined => {
    const channel = channelOfFile(file);
    const key = channel === null ? null : channelKeyOf(platform, channel);
    if (key === null) return undefined;
    let index = indexes.get(items);
    if (!index) indexes.set(items, (index = channelIndex(items)));
    return index.get(key);
  };
  const lineKey = (item: StreamerItem, lang: Language) => `chat-line:${item.id}:${lang}`;

  /** The line's key for an address as a bot typed it, or null: none of the list's streamers. */
  const keyOf = (items: StreamerItem[], url: string): string | null => {
    const [path = '', query = ''] = url.split('?', 2);
    const params = paramsOf(path);
    const item = params && find(items, params.platform, params.file);
    return item ? lineKey(item, languageOf(new URLSearchParams(query).get('lang'))) : null;
  };
  // Which line each address asks for, found once per public list: bots ask the same few
  // addresses at every command (a memo of addresses, not of answers; at most KEYS_KEPT).
  let keys: { of: StreamerItem[]; byUrl: Map<string, string | null> } | null = null;

  // Lines kept for what the current public list shows, from memory before routing.
  app.earlyAnswers.prefixed('/bot/', {
    route: '/bot/:platform/:file',
    find: (_req, url) => {
      const list = app.answers.peek(itemsKey('public'));
      if (!list) return undefined;
      const items = list.value as StreamerItem[];
      if (keys?.of !== items) keys = { of: items, byUrl: new Map() };
      let key = keys.byUrl.get(url);
      if (key === undefined) {
        key = keyOf(items, url);
        if (keys.byUrl.size >= KEYS_KEPT) keys.byUrl.clear();
        keys.byUrl.set(url, key);
      }
      return key === null ? undefined : app.answers.peek(key);
    },
  });

  app.get(
    '/bot/:platform/:file',
    { config: { guard: 'public', session: false }, schema: lineSchema },
    async (request, reply) => {
      const { platform, file } = request.params;
      const list = await listedItems(app.ctx, 'public');
      const item = find(itemsOf(list), platform, file);
      if (!item) return sendAnswer(request, reply, notFound);
      const lang = languageOf(request.query.lang);
      // Labelled with the list's version: made from a list a change has passed, it is kept for nobody.
      const line: Answer = await app.answers.get(lineKey(item, lang), async (version) =>
        makeAnswer(chatLine(item, lang, app.config.baseUrl), {
          type: TEXT,
          cacheControl: LINE_CACHE_CONTROL,
          version: list.version ?? version,
        }),
      );
      return sendAnswer(request, reply, line);
    },
  );
};
