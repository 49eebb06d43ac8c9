import type { ServerResponse } from 'node:http';
import type { Clock } from '../lib/clock.ts';
import type { EventBus, LiveEvent } from './bus.ts';

/**
 * The open event streams of one app (DECISIONS.md "Live updates"): each hears the bus and
 * writes what concerns it, ids and numbers only. A stream whose reader falls behind by more
 * than `maxBuffered` bytes is dropped (its reconnection starts afresh) rather than held in
 * memory; a heartbeat comment goes out every `heartbeatMs` of the app's clock; closing the
 * app ends them all.
 */
export const STREAM_LIMITS = {
  perAddress: 20,
  heartbeatMs: 25_000,
  maxBuffered: 256 * 1024,
  /** The pause a browser's EventSource waits before reconnecting. */
  retryMs: 3_000,
} as const;

interface Stream {
  res: ServerResponse;
  address: string;
  streamerId: number | null;
  userId: number | null;
}

/** Adds to or takes from a set kept in a map by key (the map holds no empty set). */
function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}
function takeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set?.delete(value) && set.size === 0) map.delete(key);
}

export class EventStreams {
  readonly #streams = new Set<Stream>();
  /** The streams of each streamer and of each signed-in user: an event reaches its own without a scan of all. */
  readonly #byStreamer = new Map<number, Set<Stream>>();
  readonly #byUser = new Map<number, Set<Stream>>();
  readonly #perAddress = new Map<string, number>();
  readonly #stopHeartbeat: () => void;
  readonly #unsubscribe: () => void;
  /** Streams dropped because their reader fell behind (for tests and operators). */
  dropped = 0;

  constructor(
    bus: EventBus,
    clock: Clock,
    /** A user's unread count, asked once per change whatever the number of their streams. */
    readonly unread: (userId: number) => Promise<number>,
    readonly limits: { perAddress: number; heartbeatMs: number; maxBuffered: number } = STREAM_LIMITS,
  ) {
    this.#unsubscribe = bus.subscribe((event) => this.#deliver(event));
    const heartbeat = Buffer.from(':\n\n');
    this.#stopHeartbeat = clock.every(limits.heartbeatMs, () => {
      for (const s of [...this.#streams]) this.#write(s, heartbeat);
    });
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Whether a client address may open another stream. */
  mayOpen(address: string): boolean {
    return (this.#perAddress.get(address) ?? 0) < this.limits.perAddress;
  }

  /** Takes an answered request's response as a stream (its head already written). */
  open(res: ServerResponse, who: Omit<Stream, 'res'>): void {
    const stream: Stream = { res, ...who };
    this.#streams.add(stream);
    if (who.streamerId !== null) addTo(this.#byStreamer, who.streamerId, stream);
    if (who.userId !== null) addTo(this.#byUser, who.userId, stream);
    this.#perAddress.set(who.address, (this.#perAddress.get(who.address) ?? 0) + 1);
    res.once('close', () => this.#forget(stream));
    this.#write(stream, `retry: ${STREAM_LIMITS.retryMs}\n:\n\n`);
  }

  /** Ends every stream (the app is closing). */
  close(): void {
    this.#stopHeartbeat();
    this.#unsubscribe();
    for (const s of [...this.#streams]) {
      s.res.end();
      this.#forget(s);
    }
  }

  #forget(stream: Stream): void {
    if (!this.#streams.delete(stream)) return;
    if (stream.streamerId !== null) takeFrom(this.#byStreamer, stream.streamerId, stream);
    if (stream.userId !== null) takeFrom(this.#byUser, stream.userId, stream);
    const left = (this.#perAddress.get(stream.address) ?? 1) - 1;
    if (left > 0) this.#perAddress.set(stream.address, left);
    else this.#perAddress.delete(stream.address);
  }

  #write(stream: Stream, text: string | Buffer): void {
    const { res } = stream;
    if (res.destroyed || res.writableEnded) return this.#forget(stream);
    if (res.writableLength > this.limits.maxBuffered) {
      this.dropped++;
      this.#forget(stream);
      res.destroy();
      return;
    }
    res.write(text);
  }

  #deliver(event: LiveEvent): void {
    if (event.type === 'notification') {
      void this.#notify(event.user_id);
      return;
    }
    const listeners = this.#byStreamer.get(event.streamer_id);
    if (!listeners) return;
    const { type, ...data } = event;
    // Encoded once for all the streamer's streams, not once per stream.
    const bytes = Buffer.from(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
    for (const s of [...listeners]) this.#write(s, bytes);
  }

  async #notify(userId: number): Promise<void> {
    if (!this.#byUser.has(userId)) return;
    let unread: number;
    try {
      unread = await this.unread(userId);
    } catch {
      return;
    }
    const bytes = Buffer.from(`event: notification\ndata: ${JSON.stringify({ unread })}\n\n`);
    for (const s of [...(this.#byUser.get(userId) ?? [])]) this.#write(s, bytes);
  }
}
