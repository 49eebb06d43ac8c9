import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../errors.ts';
import { pageFor, withHead } from './pages.ts';
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
 * (web/precompress.ts); a compressible file without them is compressed here.
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
export async function webRoutes(app: FastifyInstance, opts: { root?: string }) {
  const assets = loadAssets(opts.root ?? webRoot());
  if (!assets.has('/index.html'))
    app.log.warn('web page not built (dist/web missing): serving a notice at /');

  const send = (request: FastifyRequest, reply: FastifyReply, asset: Asset) => {
    reply.header('content-type', asset.type).header('cache-control', asset.cache).header('etag', asset.etag);
    reply.header('vary', 'Accept-Encoding');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    const accepts = String(request.headers['accept-encoding'] ?? '');
    if (asset.br && /\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(asset.br);
    if (asset.gzip && /\bgzip\b/.test(accepts))
      return reply.header('content-encoding', 'gzip').send(asset.gzip);
    return reply.send(asset.identity);
  };

  const index = assets.get('/index.html');
  const indexHtml = index?.identity.toString('utf8');

  /** A page path: the page's HTML with its title and Open Graph tags (pages.ts). */
  const sendPage = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const answer = await pageFor(app, path, app.config.baseUrl);
    if (!answer) return null;
    if (!indexHtml) return reply.code(answer.status).type('text/html; charset=utf-8').send(NOT_BUILT);
    return reply
      .code(answer.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(withHead(indexHtml, answer.head));
  };

  app.get('/', { config: { guard: 'public' }, schema: { summary: 'The web page' } }, async (request, reply) =>
    sendPage(request, reply, '/'),
  );

  app.get(
    '/*',
    {
      config: { guard: 'public' },
      schema: {
        summary:
          "The page's files (hashed, cached for a year) and its addresses (/s/<id>-<slug>, /suggest, /admin)",
      },
    },
    async (request, reply) => {
      let path: string;
      try {
        path = decodeURIComponent(request.url.split('?')[0] ?? '');
      } catch {
        return reply.code(404).send(errorBody('not_found'));
      }
      const asset = path !== '/index.html' ? assets.get(path) : undefined;
      if (asset) return send(request, reply, asset);
      const page = await sendPage(request, reply, path);
      if (page) return page;
      return reply.code(404).send(errorBody('not_found'));
    },
  );
}
