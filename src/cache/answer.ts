import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Answers at least this long get compressed forms (DECISIONS.md: JSON over 1 KiB). */
export const COMPRESS_FROM = 1024;

/** Types worth compressing: text of any kind, JSON, SVG, web manifests. */
const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json|atom\+xml|xml)|image\/svg\+xml)/;

export const isCompressible = (type: string): boolean => COMPRESSIBLE.test(type);

/**
 * An answer kept in memory: made once from its bytes, sent to every request that asks for it
 * (sender.ts). Its compressed forms are made once, its ETag names its bytes (or what it shows,
 * for a drawn image), and it is labelled with the content version it was made at.
 */
export interface Answer<T = unknown> {
  readonly status: 200 | 404;
  /** null: it names no version of anything (a "not found" page): no ETag, never a 304. */
  readonly etag: string | null;
  readonly type: string;
  readonly cacheControl: string;
  /** An HTML page, which gets the page's security policy; anything else gets the strict one. */
  readonly document: boolean;
  /** The service worker's script, which gets a policy that lets it ask the site's own API. */
  readonly worker: boolean;
  readonly identity: Buffer;
  /**
   * The compressed forms, each made when a request first takes it (answers.ts `form`), not
   * with the answer: most answers are read only by the service itself (the public list, whose
   * items the pages, cards and chat lines look up) or asked in one coding. The brotli form is
   * swapped for a smaller one once the cache has redone it at the best quality.
   */
  br: Buffer | null;
  gzip: Buffer | null;
  /** Its type has compressed forms (when long enough): its answers vary on Accept-Encoding. */
  readonly varies: boolean;
  /** Long enough for compressed forms (COMPRESS_FROM), made at this quality; null: none. */
  readonly quality: Quality | null;
  /** The content version it was made at (db/changes.ts); null: it does not depend on content. */
  readonly version: number | null;
  /** What it was made from, when asked to keep it (the streamer list: items looked up by id). */
  readonly value: T | undefined;
  /**
   * When what it shows turns stale by the clock alone, without a write (ms since the epoch, on
   * the app's clock: a schedule's segment that ends); null: only a write makes it stale.
   */
  readonly expires: number | null;
  /** Every header of each form, made once by the sender (sender.ts); cleared when `br` changes. */
  forms: Map<string, Record<string, string>> | null;
}

/** How hard an answer's compressed forms are worked: quickly (redone later), or at the best. */
export type Quality = 'fast' | 'best';

export interface AnswerOptions<T = unknown> {
  type: string;
  cacheControl: string;
  version: number | null;
  status?: 200 | 404;
  document?: boolean;
  worker?: boolean;
  /** The ETag when it names something other than the bytes (a drawn image: what it shows); null: none. */
  etag?: string | null;
  /** `fast` for answers made at every change (quality redone later), `best` for those made once. */
  compress?: Quality;
  /** Compressed forms made beforehand (the page's files, compressed at build time). */
  prebuilt?: { br?: Buffer; gzip?: Buffer };
  value?: T;
  /** When it turns stale by the clock (Answer `expires`). */
  expires?: number | null;
}

/** A strong ETag naming these bytes. */
export const etagOf = (bytes: Buffer | string): string =>
  `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/**
 * Brotli at quality 11 with a 1 MiB window: about 15% smaller than quality 6, ten times slower.
 * Input blocks of 64 KiB (`LGBLOCK` 16; the encoder's default at quality 9 and above is
 * 256 KiB) halve what the encoder holds while it works, 15 to 8 MiB for a 480 KB list, for
 * output within 0.2% of the same size (docs/benchmarks.md "Stop 37").
 */
export function brotliBest(identity: Buffer): Promise<Buffer> {
  return brotli(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 20,
      [constants.BROTLI_PARAM_LGBLOCK]: 16,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

function brotliFast(identity: Buffer): Promise<Buffer> {
  return brotli(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 6,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

/** A compressed form of an answer. */
export type Compressed = 'br' | 'gzip';

/** A compressed form of these bytes, off the event loop. */
export function compress(identity: Buffer, coding: Compressed, quality: Quality): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(identity, { level: quality === 'best' ? 9 : 6 });
  return quality === 'best' ? brotliBest(identity) : brotliFast(identity);
}

/** An answer from its bytes and its ETag; its compressed forms are made when first asked for. */
export function makeAnswer<T = unknown>(body: Buffer | string, opts: AnswerOptions<T>): Answer<T> {
  const identity = typeof body === 'string' ? Buffer.from(body) : body;
  const varies = isCompressible(opts.type);
  return {
    status: opts.status ?? 200,
    etag: opts.etag === undefined ? etagOf(identity) : opts.etag,
    type: opts.type,
    cacheControl: opts.cacheControl,
    document: opts.document ?? false,
    worker: opts.worker ?? false,
    identity,
    br: opts.prebuilt?.br ?? null,
    gzip: opts.prebuilt?.gzip ?? null,
    varies,
    quality: varies && identity.length >= COMPRESS_FROM ? (opts.compress ?? 'fast') : null,
    version: opts.version,
    value: opts.value,
    expires: opts.expires ?? null,
    forms: null,
  };
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The API's kept answers (DECISIONS.md "Caching"): revalidated by ETag at every use. */
export const API_CACHE_CONTROL = 'private, no-cache';

/** JSON kept for the API (the streamer views, comment lists), with `keepValue` to look into it later. */
export function jsonAnswer<T>(
  data: T,
  version: number,
  keepValue = false,
  expires: number | null = null,
): Answer<T> {
  return makeAnswer<T>(JSON.stringify(data), {
    type: JSON_TYPE,
    cacheControl: API_CACHE_CONTROL,
    version,
    expires,
    ...(keepValue ? { value: data } : {}),
  });
}

/** The earlier of two expiries (null: never). */
export const earlier = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.min(a, b);

/** The bytes an answer holds in memory. */
export const sizeOf = (a: Answer): number => a.identity.length + (a.br?.length ?? 0) + (a.gzip?.length ?? 0);
