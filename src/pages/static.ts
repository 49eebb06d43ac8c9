import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { errorBody } from '../errors.ts';
import { documentHeaders } from '../plugins/security-headers.ts';
import { DOCUMENTED, ErrorBody, errors, Html } from '../lib/schemas.ts';
import { SITE_DESCRIPTION, SITE_NAME } from '../lib/site.ts';
import { renderedView } from '../streamers/views.ts';
import { answerFor } from '../cache/send.ts';
import {
  isPageAddress,
  loadRenderer,
  NOT_FOUND_KEY,
  PageCache,
  pageHtml,
  pageKey,
  type PageRendering,
  renderedHtml,
} from './first-view.ts';
import { type Head, pageFor, withHead } from './pages.ts';
import { brotliOf, compressible, gzipOf, prebuilt, typeOf, walk } from './precompress.ts';

interface Asset {
  type: string;
  etag: string;
  cache: string;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/** The built page lives in `<project>/dist/web`, wherever this module runs from. */
export function webRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'web');
}

/**
 * Reads the built files once, with the brotli and gzip forms the build wrote beside them
 * (pages/precompress.ts); a compressible file without them is compressed here.
 */
export function loadAssets(root: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(root)) return assets;
  for (const file of walk(root)) {
    const url = '/' + relative(root, file).split(sep).join('/');
    const identity = readFileSync(file);
    const type = typeOf(file);
    const hashed = url.startsWith('/assets/');
    assets.set(url, {
      type,
      identity,
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
      // Hashed file names never change content: cache them for a year.
      cache: hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(compressible(file, identity.length)
        ? {
            gzip: prebuilt(file, 'gzip') ?? gzipOf(identity),
            br: prebuilt(file, 'br') ?? brotliOf(identity),
          }
        : {}),
    });
  }
  return assets;
}

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Streamer rating</title>
<p>The web page has not been built. Run <code>npm run build</code> (or start with <code>npm start</code>, which builds first). The API is available under <code>/api/</code>.</p>`;

/** Serves the web page at `/` and its files, compressed, with cache headers. */
export async function pageRoutes(app: FastifyInstance, opts: { root?: string; pages?: PageCache }) {
  const root = opts.root ?? webRoot();
  const assets = loadAssets(root);
  if (!assets.has('/index.html'))
    app.log.warn('web page not built (dist/web missing): serving a notice at /');

  const send = (request: FastifyRequest, reply: FastifyReply, asset: Asset) => {
    reply.header('cache-control', asset.cache).header('etag', asset.etag).header('vary', 'Accept-Encoding');
    // A 304 has no body, so it names no type (RFC 9110 15.4.5).
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    reply.header('content-type', asset.type);
    const accepts = String(request.headers['accept-encoding'] ?? '');
    if (asset.br && /\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(asset.br);
    if (asset.gzip && /\bgzip\b/.test(accepts))
      return reply.header('content-encoding', 'gzip').send(asset.gzip);
    return reply.send(asset.identity);
  };

  const index = assets.get('/index.html');
  const indexHtml = index?.identity.toString('utf8');

  const renderer = indexHtml ? await loadRenderer(root) : null;
  const pages = opts.pages ?? new PageCache();
  const { baseUrl } = app.config;

  /**
   * A page's HTML at this content version (first-view.ts): the first view rendered in it when
   * the renderer is built, the title and Open Graph tags always (pages.ts).
   */
  const produce = async (key: string, version: number): Promise<PageRendering> => {
    const answer =
      key === NOT_FOUND_KEY
        ? {
            status: 404 as const,
            head: { title: SITE_NAME, description: SITE_DESCRIPTION, url: baseUrl + '/' },
          }
        : await pageFor(app, key, baseUrl);
    const { status, head }: { status: 200 | 404; head: Head } = answer ?? {
      status: 404,
      head: { title: SITE_NAME, description: SITE_DESCRIPTION, url: baseUrl + '/' },
    };
    const html = indexHtml ?? NOT_BUILT;
    if (!renderer || !indexHtml)
      return renderedHtml(indexHtml ? withHead(html, head) : html, status, version);
    try {
      const list = (await renderedView(app, 'public')).value ?? [];
      const id = /^\/s\/(\d+)$/.exec(key)?.[1];
      const streamer = id === undefined ? undefined : { id: Number(id), pending: status === 200 };
      const view = renderer.renderPage({
        path: key,
        origin: new URL(baseUrl).origin,
        list,
        ...(streamer ? { streamer } : {}),
      });
      return renderedHtml(pageHtml(indexHtml, head, view.body, view.data), status, version);
    } catch (err) {
      // The page still works without its first view: its script renders everything.
      app.log.error({ err, page: key }, 'first view not rendered');
      return renderedHtml(withHead(indexHtml, head), status, version);
    }
  };

  const sendRendering = (request: FastifyRequest, reply: FastifyReply, page: PageRendering) => {
    // A "not found" page names no version of anything: no ETag, never 304.
    const found = page.status === 200;
    const answer = answerFor(
      page,
      found ? request.headers['if-none-match'] : undefined,
      request.headers['accept-encoding'],
    );
    void reply.header('cache-control', 'no-cache').header('vary', 'Accept-Encoding');
    if (found) void reply.header('etag', page.etag);
    if (answer.status === 304) return reply.code(304).send();
    void reply.code(page.status).header('content-type', 'text/html; charset=utf-8');
    if (answer.encoding) void reply.header('content-encoding', answer.encoding);
    return reply.send(answer.body);
  };

  const sendKey = async (request: FastifyRequest, reply: FastifyReply, key: string) => {
    // The version before the data is read: a change meanwhile renders again next time.
    const version = app.database.changes.current;
    return sendRendering(request, reply, await pages.get(key, version, () => produce(key, version)));
  };

  /** A page path: the page's HTML with its title, Open Graph tags and first view. */
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = pageKey(safeDecode(request.url.split('?')[0] ?? ''));
    if (key !== null) return sendKey(request, reply, key);
    return notFound(request, reply) ?? reply.code(404).send(errorBody('not_found'));
  };

  // Any other address a browser may ask for gets the site's "not found" page.
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    isPageAddress(request.method, safeDecode(request.url.split('?')[0] ?? ''), request.headers.accept ?? '')
      ? sendKey(request, reply, NOT_FOUND_KEY)
      : null;
  app.notFoundPage.answer = notFound;

  // A browser revalidating the page keeps the 304's headers: it must carry the page's policy,
  // not the one that allows nothing (which the security plugin gives an answer without a type).
  const pageHeaders = documentHeaders(app.config.https);
  const page = (summary: string, params?: TSchema, notFound?: string) => ({
    config: { guard: 'public' as const },
    onSend: (
      _request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (err: null, p: unknown) => void,
    ) => {
      if (reply.statusCode === 304) void reply.headers(pageHeaders);
      done(null, payload);
    },
    schema: {
      summary,
      ...(params ? { params } : {}),
      response: {
        200: Html('The page, its title and Open Graph tags naming what it shows, and its first view'),
        304: NOT_MODIFIED,
        ...(notFound
          ? { 404: { ...Html(notFound), content: { ...Html(notFound).content, ...JSON_404 } } }
          : {}),
      },
    },
  });
  // The page's own addresses, each a route, so the API document lists exactly what is served.
  app.get('/', page('The ranking (the web page)'), sendPage);
  app.get('/suggest', page('The suggestion form (the web page)'), sendPage);
  app.get('/privacy', page('What the site stores and how to leave (the web page)'), sendPage);
  app.get('/your-data', page('Your data: export and delete your account (the web page)'), sendPage);
  app.get('/team', page('Your team: its streamer, your rating, its members (the web page)'), sendPage);
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

  const file = (summary: string, params?: TSchema) => ({
    config: { guard: 'public' as const, session: false as const },
    schema: {
      summary,
      ...(params ? { params } : {}),
      response: {
        200: {
          description: 'The file',
          content: { '*/*': { schema: Type.String({ contentEncoding: 'binary', description: 'The file' }) } },
        },
        304: Type.Null({ description: 'Not modified (If-None-Match)' }),
        ...(params ? errors(404) : {}),
      },
    },
  });
  const sendFile = (request: FastifyRequest, reply: FastifyReply) => {
    const path = safeDecode(request.url.split('?')[0] ?? '');
    const asset = path !== '/index.html' ? assets.get(path) : undefined;
    if (!asset) return reply.code(404).send(errorBody('not_found'));
    return send(request, reply, asset);
  };
  app.get(
    '/assets/:file',
    file(
      "The page's scripts and styles (hashed names, cached for a year)",
      Type.Object({
        file: Type.String({ description: 'A built file, e.g. `index-1a2b3c.js`', examples: ['index.js'] }),
      }),
    ),
    sendFile,
  );
  for (const url of assets.keys()) {
    if (url !== '/index.html' && url.split('/').length === 2)
      app.get(url, file(`The page's file ${url}`), sendFile);
  }
}

/** A path as text; a malformed percent-escape names no page or file. */
function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return '\u0000';
  }
}

const JSON_404 = { 'application/json': { schema: ErrorBody } };
const NOT_MODIFIED = Type.Null({ description: 'Not modified (If-None-Match)' });
