import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Answers at least this long are kept compressed too (DECISIONS.md: JSON over 1 KiB). */
export const COMPRESS_FROM = 1024;

/** An answer rendered once: the value, its JSON bytes, their compressed forms and ETag. */
export interface Rendered<T> {
  version: number;
  /** Kept only when asked for (the streamer list, whose items are looked up by id). */
  value: T | undefined;
  etag: string;
  identity: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}

const sizeOf = (r: Rendered<unknown>) => r.identity.length + (r.br?.length ?? 0) + (r.gzip?.length ?? 0);

/** JSON bytes with their ETag and, past 1 KiB, brotli and gzip forms (compressed off the event loop). */
export async function render<T>(data: T, version: number, keepValue = true): Promise<Rendered<T>> {
  const identity = Buffer.from(JSON.stringify(data));
  const value = keepValue ? data : undefined;
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  if (identity.length < COMPRESS_FROM) return { version, value, etag, identity, br: null, gzip: null };
  // One after the other: two compressors at once doubled the memory peak of the largest
  // answer (10,000 comments) for a few milliseconds saved.
  const br = await brotli(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 6,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  const gz = await gzipAsync(identity, { level: 6 });
  return { version, value, etag, identity, br, gzip: gz };
}

/** Entries between these sizes get their brotli form recompressed at quality 11. */
const REFINE_FROM = 8 * 1024;
const REFINE_UP_TO = 2 ** 20;

/** The best brotli, for answers read thousands of times per change (half a second per 400 KB). */
function brotliBest(identity: Buffer): Promise<Buffer> {
  return brotli(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      // A window of 1 MiB covers every refined answer and keeps the compressor's memory small.
      [constants.BROTLI_PARAM_LGWIN]: 20,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

/**
 * Answers rendered once per change of the content version (db/changes.ts) and kept, most
 * recently used first, within a byte budget. Concurrent misses of one key wait for one
 * rendering instead of each doing it.
 */
export class RenderCache {
  readonly #entries = new Map<string, Rendered<unknown>>();
  readonly #pending = new Map<string, Promise<Rendered<unknown>>>();
  #bytes = 0;
  /** Entries waiting for their quality-11 brotli, compressed one at a time. */
  readonly #toRefine: { key: string; rendered: Rendered<unknown> }[] = [];
  #refining: Promise<void> | null = null;

  constructor(readonly maxBytes: number) {}

  /**
   * A stored entry is answered at once with brotli quality 6; then, off the event loop and
   * one entry at a time, its brotli is redone at quality 11 (about 15% smaller, half a
   * second of a worker thread for the 400 KB list) and swapped in if the entry is still the
   * current one. Its ETag names the JSON bytes, so it does not change.
   */
  #refine(key: string, rendered: Rendered<unknown>): void {
    if (!rendered.br || rendered.identity.length < REFINE_FROM || rendered.identity.length > REFINE_UP_TO)
      return;
    this.#toRefine.push({ key, rendered });
    this.#refining ??= this.#refineAll().finally(() => (this.#refining = null));
  }

  async #refineAll(): Promise<void> {
    for (let next = this.#toRefine.shift(); next; next = this.#toRefine.shift()) {
      const { key, rendered } = next;
      if (this.#entries.get(key) !== rendered) continue;
      const best = await brotliBest(rendered.identity).catch(() => null);
      if (!best || !rendered.br || best.length >= rendered.br.length) continue;
      if (this.#entries.get(key) !== rendered) continue;
      this.#bytes -= rendered.br.length - best.length;
      rendered.br = best;
    }
  }

  /** Resolves when no brotli is being redone (tests). */
  async refined(): Promise<void> {
    while (this.#refining) await this.#refining;
  }

  /** The entry of this key if it is rendered at this version (no rendering, no promise). */
  peek(key: string, version: number): Rendered<unknown> | undefined {
    const hit = this.#entries.get(key);
    return hit && hit.version === version ? hit : undefined;
  }

  async get<T>(
    key: string,
    version: number,
    produce: () => Promise<T>,
    keepValue = true,
  ): Promise<Rendered<T>> {
    const hit = this.#entries.get(key);
    if (hit && hit.version === version) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit as Rendered<T>;
    }
    const flight = `${key}\u0000${version}`;
    let pending = this.#pending.get(flight) as Promise<Rendered<T>> | undefined;
    if (!pending) {
      pending = produce().then((value) => render(value, version, keepValue));
      this.#pending.set(flight, pending);
      void pending.then(
        (rendered) => {
          this.#pending.delete(flight);
          this.#store(key, rendered);
        },
        () => this.#pending.delete(flight),
      );
    }
    return pending;
  }

  #store(key: string, rendered: Rendered<unknown>): void {
    const old = this.#entries.get(key);
    if (old && old.version > rendered.version) return;
    if (old) {
      this.#bytes -= sizeOf(old);
      this.#entries.delete(key);
    }
    const size = sizeOf(rendered);
    if (size > this.maxBytes) return;
    this.#entries.set(key, rendered);
    this.#bytes += size;
    this.#refine(key, rendered);
    for (const [k, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(k);
      this.#bytes -= sizeOf(entry);
    }
  }

  get bytes(): number {
    return this.#bytes;
  }
}
