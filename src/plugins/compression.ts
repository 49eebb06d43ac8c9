import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { COMPRESS_FROM, isCompressible } from '../cache/answer.ts';
import { chooseCoding } from '../cache/sender.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

function withVary(current: unknown): string {
  const vary = typeof current === 'string' ? current : '';
  return /\baccept-encoding\b/i.test(vary) ? vary : vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding';
}

/**
 * JSON and text answers over 1 KiB are compressed (brotli quality 4, else gzip) when the
 * request accepts it (DECISIONS.md "Caching"), by the sender's rules (cache/sender.ts). Kept
 * answers (cache/answers.ts), which bring their forms made once, and streams pass through. It
 * replaces @fastify/compress, whose per-request checks (a `Response` global lookup in
 * every onSend) cost more than a small answer itself, and whose modules weighed 12 MB.
 */
export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
      if (payload.length < COMPRESS_FROM || reply.hasHeader('content-encoding')) return done(null, payload);
      const type = reply.getHeader('content-type');
      if (typeof type !== 'string' || !isCompressible(type)) return done(null, payload);
      reply.header('vary', withVary(reply.getHeader('vary')));
      const encoding = chooseCoding(request.headers['accept-encoding'], { br: true, gzip: true });
      if (encoding === 'identity') return done(null, payload);
      const compressed =
        encoding === 'br'
          ? brotli(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
          : gzipAsync(payload);
      compressed.then((bytes) => {
        reply.header('content-encoding', encoding).removeHeader('content-length');
        done(null, bytes);
      }, done);
    });
  },
  { name: 'compression' },
);
