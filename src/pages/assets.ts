import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { type Answer, makeAnswer } from '../cache/answer.ts';
import { SERVICE_WORKER } from '../shared/pages.ts';
import { sendAnswer } from '../cache/sender.ts';
import { errorBody } from '../errors.ts';
import { errors, NotModified } from '../lib/schemas.ts';
import { decodePath } from '../shared/pages.ts';
import { compressible, prebuilt, typeOf, walk } from './precompress.ts';

/** The built page lives in `<project>/dist/web`, wherever this module runs from. */
export function webRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'dist', 'web');
}

/** The answer cache's key of a built file (cache/answers.ts). */
export const assetKey = (url: string): string => `asset:${url}`;

/**
 * Reads the built files once as answers pinned in the answer cache, with the brotli and gzip
 * forms the build wrote beside them (pages/precompress.ts); a compressible file without them
 * gets them when a request first takes them (cache/answers.ts). Answers the files by their address.
 */
export async function loadAssets(root: string): Promise<Map<string, Answer>> {
  const assets = new Map<string, Answer>();
  if (!existsSync(root)) return assets;
  for (const file of walk(root)) {
    const url = '/' + relative(root, file).split(sep).join('/');
    const identity = readFileSync(file);
    const br = compressible(file, identity.length) ? prebuilt(file, 'br') : undefined;
    const gzip = compressible(file, identity.length) ? prebuilt(file, 'gzip') : undefined;
    const answer = makeAnswer(identity, {
      type: typeOf(file),
      // Hashed file names never change content: cache them for a year.
      cacheControl: url.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      version: null,
      worker: url === SERVICE_WORKER,
      compress: 'best',
      prebuilt: { ...(br ? { br } : {}), ...(gzip ? { gzip } : {}) },
    });
    assets.set(url, answer);
  }
  return assets;
}

/** The page's built files: `/assets/<hashed name>` and the files at the top (favicon, manifest). */
export async function assetRoutes(app: FastifyInstance, opts: { assets: Map<string, Answer> }) {
  for (const [url, answer] of opts.assets) app.answers.pin(assetKey(url), answer);

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
        304: NotModified,
        ...(params ? errors(404) : {}),
      },
    },
  });
  const sendFile = (request: FastifyRequest, reply: FastifyReply) => {
    const path = decodePath(request.url.split('?')[0] ?? '');
    const answer = path !== '/index.html' ? app.answers.peek(assetKey(path)) : undefined;
    if (!answer) return reply.code(404).send(errorBody('not_found'));
    return sendAnswer(request, reply, answer);
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
  for (const url of opts.assets.keys()) {
    if (url !== '/index.html' && url.split('/').length === 2)
      app.get(url, file(`The page's file ${url}`), sendFile);
  }
}
