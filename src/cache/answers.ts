import type { Clock } from '../lib/clock.ts';
import { type Answer, brotliBest, type Compressed, compress, sizeOf } from './answer.ts';

/** The content version the cache follows (db/changes.ts ContentVersion). */
export interface Versioned {
  readonly current: number;
  /** Called after every move of the version. */
  onBump?(f: () => void): void;
}

/** How often answers made stale by a change are let go (when there was a change). */
export const SWEEP_EVERY_MS = 1000;

/** Answers between these sizes get their brotli form redone at quality 11 after they are kept. */
const REFINE_FROM = 8 * 1024;
const REFINE_UP_TO = 2 ** 20;

/**
 * How long an answer must stay current before its brotli is redone: the redo takes a worker
 * thread half a second or more (the 400 KB list), and an answer made stale meanwhile (a live sync
 * writing several times a second, comments being posted) would have it thrown away.
 */
export const REFINE_AFTER_MS = 1000;

/**
 * The one cache of answers kept in memory (docs/architecture.md "One way to answer"): the
 * public list, comment lists, pages, drawn images, the API document. An answer is kept under
 * its key, labelled with the content version it was made at: once the version moves (any
 * write, on any instance: db/changes.ts) it is never answered again and its key is made anew
 * on the next request. Answers that do not depend on content (version null: a drawn image
 * keyed by what it shows, the API document) stay until the byte budget pushes them out, the
 * least recently used first. Pinned answers (the page's built files) stay for good, outside
 * the budget. Concurrent misses of one key wait for one making of it. A stale answer is never
 * kept: those a change made stale are let go within a second of it, on the app's clock (one
 * sweep a second at most, however many writes), so a big answer nobody asks for again (a streamer's 10,000
 * comments) does not hold its megabytes until the budget pushes it out.
 */
export class AnswerCache {
  readonly #entries = new Map<string, Answer>();
  readonly #pinned = new Map<string, Answer>();
  readonly #pending = new Map<string, Promise<Answer>>();
  /** The bytes counted for each kept answer, and its key (its forms are added after it is kept). */
  readonly #held = new WeakMap<Answer, { key: string; bytes: number }>();
  /** Compressed forms being made, by answer, so concurrent requests wait for one making. */
  readonly #making = new WeakMap<Answer, Map<Compressed, Promise<boolean>>>();
  #bytes = 0;
  /** Answers waiting for their quality-11 brotli, with when they were kept (app's clock). */
  #toRefine: { key: string; answer: Answer; keptAt: number }[] = [];
  #refining: Promise<void> | null = null;
  #changed = false;
  /** Stops the sweeps (the app's close). */
  readonly stop: () => void;

  readonly #now: () => number;

  constructor(
    readonly content: Versioned,
    readonly maxBytes: number,
    clock: Clock,
  ) {
    this.#now = () => clock.now().getTime();
    content.onBump?.(() => void (this.#changed = true));
    this.stop = clock.every(SWEEP_EVERY_MS, () => {
      this.#sweepStale();
      this.#refineDue();
    });
  }

  /** Lets go of every answer made at an older content version: none is answered again. */
  #sweepStale(): void {
    if (!this.#changed) return;
    this.#changed = false;
    for (const [key, entry] of this.#entries) {
      if (entry.version !== null && entry.version !== this.content.current) this.#drop(key, entry);
    }
  }

  /** Lets go of a kept answer. */
  #drop(key: string, entry: Answer): void {
    this.#entries.delete(key);
    this.#bytes -= this.#held.get(entry)?.bytes ?? 0;
    this.#held.delete(entry);
  }

  /** Lets go of the least recently used answers until the kept ones fit the budget. */
  #fit(): void {
    for (const [k, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#drop(k, entry);
    }
  }

  /**
   * The answer kept under `key` if it is current (made at this content version, and not past
   * its `expires` on the app's clock); nothing is made, nothing waited for.
   */
  peek(key: string): Answer | undefined {
    const hit = this.#entries.get(key) ?? this.#pinned.get(key);
    if (!hit || (hit.version !== null && hit.version !== this.content.current)) return undefined;
    return hit.expires === null || hit.expires > this.#now() ? hit : undefined;
  }

  /**
   * The current answer of `key`, made by `make` when there is none. `make` gets the content
   * version read before it reads anything, and labels its answer with it: a change while it
   * runs makes the answer stale at once rather than labelling old data as new.
   */
  get<T>(key: string, make: (version: number) => Answer<T> | Promise<Answer<T>>): Promise<Answer<T>> {
    const hit = this.peek(key);
    if (hit) {
      if (this.#entries.delete(key)) this.#entries.set(key, hit);
      return Promise.resolve(hit as Answer<T>);
    }
    const version = this.content.current;
    const flight = `${key}\u0000${version}`;
    let pending = this.#pending.get(flight) as Promise<Answer<T>> | undefined;
    if (!pending) {
      pending = Promise.resolve(make(version));
      this.#pending.set(flight, pending);
      void pending.then(
        (answer) => {
          this.#pending.delete(flight);
          this.#store(key, answer);
        },
        () => this.#pending.delete(flight),
      );
    }
    return pending;
  }

  /** Kept for good, outside the budget: answers made once at start (the page's built files). */
  pin(key: string, answer: Answer): void {
    this.#pinned.set(key, answer);
  }

  #store(key: string, answer: Answer): void {
    // Made while the content changed: answered to those who waited for it, kept for nobody.
    if (answer.version !== null && answer.version !== this.content.current) return;
    const old = this.#entries.get(key);
    if (old) this.#drop(key, old);
    const size = sizeOf(answer);
    if (size > this.maxBytes) return;
    this.#entries.set(key, answer);
    this.#held.set(answer, { key, bytes: size });
    this.#bytes += size;
    this.#fit();
  }

  /**
   * Makes `answer`'s form `coding` if it has none yet (answer.ts: forms are made when a request
   * first takes them), once however many ask. A kept answer's bytes grow by it, and its quick
   * brotli is queued to be redone. False: it could not be made (the bytes go as they are).
   */
  form(answer: Answer, coding: Compressed): Promise<boolean> {
    if (answer[coding] !== null) return Promise.resolve(true);
    const quality = answer.quality;
    if (quality === null) return Promise.resolve(false);
    let making = this.#making.get(answer);
    if (!making) this.#making.set(answer, (making = new Map<Compressed, Promise<boolean>>()));
    let pending = making.get(coding);
    if (!pending) {
      // After the answer's other form, if it is being made: two compressors at once doubled
      // the memory peak of the largest answer (10,000 comments) for a few milliseconds saved.
      const other = making.get(coding === 'br' ? 'gzip' : 'br') ?? Promise.resolve(true);
      pending = other
        .then(() => compress(answer.identity, coding, quality))
        .then(
          (bytes) => {
            this.#added(answer, coding, bytes);
            return true;
          },
          () => false,
        );
      making.set(coding, pending);
      const forget = () => making.delete(coding);
      void pending.then(forget);
    }
    return pending;
  }

  /** A form made for `answer`: it is its own from now on, and counted while it is kept. */
  #added(answer: Answer, coding: Compressed, bytes: Buffer): void {
    if (answer[coding] !== null) return;
    answer[coding] = bytes;
    const held = this.#held.get(answer);
    if (!held) return;
    held.bytes += bytes.length;
    this.#bytes += bytes.length;
    if (coding === 'br' && answer.quality === 'fast') this.#refine(held.key, answer);
    this.#fit();
  }

  /**
   * An answer kept with a quick brotli (made at every change) gets, off the event loop and one
   * at a time, a quality-11 one (about 15% smaller; half a second of a worker thread for the
   * 400 KB list), swapped in if the answer is still the one kept. Its ETag names the bytes
   * before compression, so it does not change. The redo waits until the answer has stayed
   * current for REFINE_AFTER_MS (checked at each sweep).
   */
  #refine(key: string, answer: Answer): void {
    const size = answer.identity.length;
    if (!answer.br || answer.version === null || size < REFINE_FROM || size > REFINE_UP_TO) return;
    this.#toRefine.push({ key, answer, keptAt: this.#now() });
  }

  /** Answers kept long enough and still current are redone; those no longer kept are let go. */
  #refineDue(): void {
    this.#toRefine = this.#toRefine.filter(({ key, answer }) => this.#current(key, answer));
    if (this.#refining) return;
    const due = this.#now() - REFINE_AFTER_MS;
    const ready = this.#toRefine.filter((r) => r.keptAt <= due);
    if (ready.length === 0) return;
    this.#toRefine = this.#toRefine.filter((r) => r.keptAt > due);
    this.#refining = this.#refineAll(ready).finally(() => (this.#refining = null));
  }

  /** Whether `answer` is still the current one kept under `key`. */
  #current(key: string, answer: Answer): boolean {
    return this.#entries.get(key) === answer && answer.version === this.content.current;
  }

  async #refineAll(ready: { key: string; answer: Answer }[]): Promise<void> {
    for (const { key, answer } of ready) {
      if (!this.#current(key, answer)) continue;
      const best = await brotliBest(answer.identity).catch(() => null);
      if (!best || !answer.br || best.length >= answer.br.length) continue;
      const held = this.#held.get(answer);
      if (this.#entries.get(key) !== answer || !held) continue;
      held.bytes -= answer.br.length - best.length;
      this.#bytes -= answer.br.length - best.length;
      answer.br = best;
      answer.forms = null;
    }
  }

  /** Resolves when no brotli is being redone (tests). */
  async refined(): Promise<void> {
    while (this.#refining) await this.#refining;
  }

  /** How many answers are kept (pinned ones aside). */
  get size(): number {
    return this.#entries.size;
  }

  /** Bytes held by the kept answers (pinned ones aside). */
  get bytes(): number {
    return this.#bytes;
  }
}
