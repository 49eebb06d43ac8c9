/**
 * Drawn images by ETag, most recently used first, within a byte budget. Concurrent misses of
 * one image wait for one drawing.
 */
export class ImageCache {
  readonly #entries = new Map<string, Buffer>();
  readonly #pending = new Map<string, Promise<Buffer>>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  async get(key: string, draw: () => Promise<Buffer>): Promise<Buffer> {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = draw()
        .then((bytes) => {
          this.#store(key, bytes);
          return bytes;
        })
        .finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    return pending;
  }

  #store(key: string, bytes: Buffer): void {
    this.#entries.set(key, bytes);
    this.#bytes += bytes.length;
    for (const [old, value] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(old);
      this.#bytes -= value.length;
    }
  }
}
