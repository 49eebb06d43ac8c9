import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { type Answer, makeAnswer } from '../cache/answer.ts';
import { sendAnswer } from '../cache/sender.ts';
import { errorBody } from '../errors.ts';
import { DOCUMENTED, ErrorBody, Html, NotModified } from '../lib/schemas.ts';
import { SITE_DESCRIPTION, SITE_NAME } from '../shared/site.ts';
import { itemsOf, listedItems } from '../streamers/views.ts';
import { assetRoutes, loadAssets, webRoot } from './assets.ts';
import { decodePath, pageKey, PLAIN_PAGES, type PlainPage } from '../shared/pages.ts';
import { isPageAddress, loadRenderer, NOT_FOUND_KEY, pageHtml } from './first-view.ts';
import { type Head, pageFor, withHead } from './pages.ts';

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Streamer rating</title>
<p>The web page has not been built. Run <code>npm run build</code> (or start with <code>npm start</code>, which builds first). The API is available under <code>/api/</code>.</p>`;

/** What the API document says of each plain page address (src/shared/pages.ts). */
const SUMMARIES: Record<PlainPage, string> = {
  ranking: 'The ranking (the web page)',
  suggest: 'The suggestion form (the web page)',
  privacy: 'What the site stores and how to leave (the web page)',
  account: 'Your data: export and delete your account (the web page)',
  team: 'Your team: its streamer, your rating, its members (the web page)',
  upcoming: "The next 7 days' scheduled streams, by day, live streamers first (the web page)",
};

/** The answer cache's key of a page (cache/answers.ts). */
const pageCacheKey = (key: string): string => `page:${key}`;

/** The page's HTML answer: revalidated at every use, with the page's security policy. */
const htmlAnswer = (html: string, status: 200 | 404, version: number, expires: number | null = null) =>
  makeAnswer(html, {
    type: 'text/html; charset=utf-8',
    cacheControl: 'no-cache',
    document: true,
    status,
    version,
    // The first view shows the list's next streams: stale when the list is (schedules).
    expires,
    // A "not found" page names no version of anything: no ETag, never 304.
    ...(status === 404 ? { etag: null } : {}),
    // Read many times per change: the best compression at once.
    compress: 'best',
  });

/** Serves the web page at its addresses (with the first view) and its files. */
export async function pageRoutes(app: FastifyInstance, opts: { root?: string }) {
  const root = opts.root ?? webRoot();
  const assets = await loadAssets(root);
  if (!assets.has('/index.html'))
    app.log.warn('web page not built (dist/web missing): serving a notice at /');
  await assetRoutes(app, { assets });

  const indexHtml = assets.get('/index.html')?.identity.toString('utf8');
  const renderer = indexHtml ? await loadRenderer(root) : null;
  const { baseUrl } = app.config;

  /**
   * A page's HTML at this content version (first-view.ts): the first view rendered in it when
   * the renderer is built, the title and Open Graph tags always (pages.ts).
   */
  const make = async (key: string, version: number): Promise<Answer> => {
    const generic = {
      status: 404 as const,
      head: { title: SITE_NAME, description: SITE_DESCRIPTION, url: baseUrl + '/' },
    };
    const { status, head }: { status: 200 | 404; head: Head } =
      (key === NOT_FOUND_KEY ? generic : await pageFor(app.ctx, key, baseUrl)) ?? generic;
    if (!renderer || !indexHtml)
      return htmlAnswer(indexHtml ? withHead(indexHtml, head) : NOT_BUILT, status, version);
    try {
      const listAnswer = await listedItems(app.ctx, 'public');
      const list = itemsOf(listAnswer);
      const id = /^\/s\/(\d+)$/.exec(key)?.[1];
      const streamer = id === undefined ? undefined : { id: Number(id), pending: status === 200 };
      const view = renderer.renderPage({
        path: key,
        origin: new URL(baseUrl).origin,
        list,
        ...(streamer ? { streamer } : {}),
      });
      return htmlAnswer(pageHtml(indexHtml, head, view.body, view.data), status, version, listAnswer.expires);
    } catch (err) {
      // The page still works without its first view: its script renders everything.
      app.log.error({ err, page: key }, 'first view not rendered');
      return htmlAnswer(withHead(indexHtml, head), status, version);
    }
  };

  const sendKey = async (request: FastifyRequest, reply: FastifyReply, key: string) =>
    sendAnswer(request, reply, await app.answers.get(pageCacheKey(key), (version) => make(key, version)));

  /** A page path: the page's HTML with its title, Open Graph tags and first view. */
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = pageKey(decodePath(request.url.split('?')[0] ?? ''));
    if (key !== null) return sendKey(request, reply, key);
    return notFound(request, reply) ?? reply.code(404).send(errorBody('not_found'));
  };

  // Any other address a browser may ask for gets the site's "not found" page.
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    isPageAddress(request.method, decodePath(request.url.split('?')[0] ?? ''), request.headers.accept ?? '')
      ? sendKey(request, reply, NOT_FOUND_KEY)
      : null;
  app.notFoundPage.answer = notFound;

  // The pages already made for the current content, from memory before routing (cache/early.ts),
  // to a visitor without a cookie and for an address without a query.
  const early = (url: string): Answer | undefined => {
    if (url.includes('?')) return undefined;
    const key = pageKey(decodePath(url));
    return key === null ? undefined : app.answers.peek(pageCacheKey(key));
  };
  const route = (name: string) => ({
    route: name,
    find: (req: { headers: { cookie?: string } }, url: string) =>
      req.headers.cookie === undefined ? early(url) : undefined,
  });
  for (const path of Object.values(PLAIN_PAGES)) app.earlyAnswers.exact(path, route(path));
  app.earlyAnswers.prefixed('/s/', route('/s/:ref'));

  // A browser revalidating the page keeps the 304's headers: the sender gives it the page's
  // policy, not the one that allows nothing (cache/sender.ts).
  const page = (summary: string, params?: TSchema, notFound?: string) => ({
    config: { guard: 'public' as const },
    schema: {
      summary,
      ...(params ? { params } : {}),
      response: {
        200: Html('The page, its title and Open Graph tags naming what it shows, and its first view'),
        304: NotModified,
        ...(notFound
          ? { 404: { ...Html(notFound), content: { ...Html(notFound).content, ...JSON_404 } } }
          : {}),
      },
    },
  });
  // The page's own addresses, each a route, so the API document lists exactly what is served.
  for (const [name, path] of Object.entries(PLAIN_PAGES) as [PlainPage, string][])
    app.get(path, page(SUMMARIES[name]), sendPage);
  app.get('/admin', page('Administration (the web page)'), sendPage);
  app.get(
    '/admin/:tab',
    page(
      'A tab of the administration (the web page)',
      Type.Object({
        tab: Type.String({
          [DOCUMENTED]: Type.String({
            pattern: '^[a-z-]+$',
            description: 'e.g. `teams`',
            examples: ['teams'],
          }),
        }),
      }),
      'Not a tab: the page saying so to a browser (HTML), else Not found (JSON)',
    ),
    sendPage,
  );
  app.get(
    '/s/:ref',
    page(
      "A streamer's page; its title names the streamer when it is in the Public view",
      Type.Object({
        ref: Type.String({
          [DOCUMENTED]: Type.String({
            pattern: '^[0-9]{1,15}(-[^/]*)?$',
            description: "The streamer's id, then optionally `-` and a slug of its name: `12-some-streamer`",
            examples: ['1-some-streamer'],
          }),
        }),
      }),
      'No such streamer: the page saying so (HTML); Not found (JSON) to a client that does not accept HTML for an address that is not an id',
    ),
    sendPage,
  );
}

const JSON_404 = { 'application/json': { schema: ErrorBody } };
