import type { ServerResponse } from 'node:http';
import { isIPv4 } from 'node:net';
import { type Clock, MINUTE } from '../lib/clock.ts';
import type { LoggedEvent } from './log.ts';
import { addRanking, sentData, type Sight } from './ranking.ts';
import { eachOnesPage, sseEvent } from './sse.ts';
import type { EventTail } from './tail.ts';

/**
 * The open event streams of one app (DECISIONS.md "Live updates"): each hears the bus and
 * writes what concerns it, ids and numbers only. A stream whose reader falls behind by more
 * than `maxBuffered` bytes is dropped (its reconnection starts afresh) rather than held in
 * memory; a heartbeat comment goes out every `heartbeatMs` of the app's clock; closing the
 * app ends them all. Issue 45 item 4: a stream lives `lifetimeMs` at most (the page's
 * EventSource reconnects with its `Last-Event-ID` and resumes), one network holds
 * `perNetwork` at most, and the app `total` at most, well below its connection limit.
 */
export const STREAM_LIMITS = {
  perAddress: 20,
  /** Open streams of one network (an IPv4 /24, an IPv6 /56): above `perAddress`, so a busy NAT gets its share. */
  perNetwork: 100,
  /** After this much of the app's clock the server ends a stream, and the page reconnects. */
  lifetimeMs: 15 * MINUTE,
  heartbeatMs: 25_000,
  maxBuffered: 256 * 1024,
  /** The pause a browser's EventSource waits before reconnecting. */
  retryMs: 3_000,
} as const;

export interface StreamLimits {
  perAddress: number;
  perNetwork: number;
  /** Open streams in all (streamsWithin). */
  total: number;
  lifetimeMs: number;
  heartbeatMs: number;
  maxBuffered: number;
}

/**
 * The open streams an app takes in all: half the connections its server takes
 * (http/connections.ts), so that the rest of the site keeps answering while streams are many.
 */
export const streamsWithin = (connections: number): number => Math.max(1, Math.floor(connections / 2));

/** Why a stream may not be opened now; null when it may. */
export type Refusal = 'address' | 'network' | 'total' | null;

/**
 * The network an address counts toward for `perNetwork`: an IPv4 address's /24, an IPv6
 * address's /56 (a client address as clientNetwork gives it: IPv4, or an IPv6 /64).
 */
export function networkOf(address: string): string {
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  const groups = address.replace(/::\/64$/, '').split(':');
  const fourth = (groups[3] ?? '0').padStart(4, '0').slice(0, 2);
  return `${[...groups.slice(0, 3), `${fourth}00`].join(':')}::/56`;
}

interface Stream {
  res: ServerResponse;
  address: string;
  /** When it opened, by the app's clock (ms). */
  openedAt: number;
  streamerId: number | null;
  userId: number | null;
  /** The session cookie the stream was opened with (a signed-in stream's), to ask it again. */
  cookieId: string | null;
  /** The ranking's stream (`?ranking=1`, events/ranking.ts). */
  ranking: boolean;
  /** A ranking's stream of staff or a team's member: which streamers outside the Public view it hears. */
  sees: Sight | null;
  /** What the log brought while the stream was being replayed what it missed; null once live. */
  held: Buffer[] | null;
}

/** The event types a stream shows, of those the log holds. */
const STREAMED = new Set<LoggedEvent['type']>(['comment', 'comment_removed', 'rating', 'live']);

/** Adds to or takes from a set kept in a map by key (the map holds no empty set). */
function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  map.set(key, (map.get(key) ?? new Set()).add(value));
}
function takeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set?.delete(value) && set.size === 0) map.delete(key);
}

/** Moves a count kept in a map by key (the map holds no zero). */
function count(map: Map<string, number>, key: string, by: 1 | -1): void {
  const n = (map.get(key) ?? 0) + by;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

export class EventStreams {
  readonly #streams = new Set<Stream>();
  /** The streams of each streamer and of each signed-in user: an event reaches its own without a scan of all. */
  readonly #byStreamer = new Map<number, Set<Stream>>();
  readonly #byUser = new Map<number, Set<Stream>>();
  readonly #ranking = new Set<Stream>();
  readonly #perAddress = new Map<string, number>();
  readonly #perNetwork = new Map<string, number>();
  /** A page of the log is being delivered: the tail's cursor is not yet every stream's. */
  #delivering = false;
  readonly #stopHeartbeat: () => void;
  readonly #unsubscribe: () => void;
  /** Streams dropped because their reader fell behind (for tests and operators). */
  dropped = 0;

  constructor(
    readonly tail: EventTail,
    readonly clock: Clock,
    /** A user's unread count, asked once per change whatever the number of their streams. */
    readonly unread: (userId: number) => Promise<number>,
    /**
     * The user a session cookie signs in now (null: signed out, signed out everywhere, banned,
     * timed out): a stream is told its user's count only while its session still names them.
     */
    readonly sessionUser: (cookieId: string) => Promise<number | null>,
    /** Which of these streamers are in the Public view: the ranking's streams hear of them. */
    readonly inPublicView: Sight,
    readonly limits: StreamLimits,
  ) {
    this.#unsubscribe = tail.subscribe((events) => this.#deliver(events));
    const heartbeat = Buffer.from(':\n\n');
    this.#stopHeartbeat = clock.every(limits.heartbeatMs, () => {
      const now = clock.now().getTime();
      for (const s of [...this.#streams]) {
        if (now - s.openedAt >= limits.lifetimeMs) this.#end(s);
        else this.#write(s, heartbeat);
      }
    });
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Whether a client address may open another stream now, and if not, why. */
  refusal(address: string): Refusal {
    if (this.#streams.size >= this.limits.total) return 'total';
    if ((this.#perAddress.get(address) ?? 0) >= this.limits.perAddress) return 'address';
    if ((this.#perNetwork.get(networkOf(address)) ?? 0) >= this.limits.perNetwork) return 'network';
    return null;
  }

  /**
   * Takes an answered request's response as a stream (its head already written). With `catchUp`
   * the stream first gets what it missed: what the log brings meanwhile is held back, and
   * `catchUp` answers what to send before it (the replayed events, or a `reset`).
   */
  open(
    res: ServerResponse,
    who: Omit<Stream, 'res' | 'held' | 'openedAt'>,
    /** The last id of the log this instance handed out: the stream's start. */
    cursor: number,
    catchUp?: () => Promise<Buffer[]>,
  ): void {
    const stream: Stream = { res, ...who, openedAt: this.clock.now().getTime(), held: catchUp ? [] : null };
    this.#streams.add(stream);
    if (who.streamerId !== null) addTo(this.#byStreamer, who.streamerId, stream);
    if (who.userId !== null) addTo(this.#byUser, who.userId, stream);
    if (who.ranking) this.#ranking.add(stream);
    count(this.#perAddress, who.address, 1);
    count(this.#perNetwork, networkOf(who.address), 1);
    res.once('close', () => this.#forget(stream));
    // The log's id it starts at: a reconnection asks from there (an `id:` alone is no event). A
    // stream that catches up is told it after what it missed (`catchUp` ends with it), so that
    // ids only grow and a drop in the middle of the replay resumes where the replay stopped.
    const start = cursor > 0 && !catchUp ? `id: ${cursor}\n` : '';
    this.#send(stream, `retry: ${STREAM_LIMITS.retryMs}\n${start}:\n\n`);
    if (!catchUp) return;
    void catchUp().then(
      (first) => {
        const held = stream.held ?? [];
        stream.held = null;
        for (const bytes of [...first, ...held]) this.#send(stream, bytes);
      },
      () => {
        stream.held = null;
        this.#forget(stream);
        res.destroy();
      },
    );
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
    this.#ranking.delete(stream);
    count(this.#perAddress, stream.address, -1);
    count(this.#perNetwork, networkOf(stream.address), -1);
  }

  /**
   * A stream past its lifetime ends. A live one is first told the log's id every page up to
   * which it was given (unless a page is being given right now), so that its reconnection
   * resumes from there, not from an event long past the replay's reach.
   */
  #end(stream: Stream): void {
    if (stream.held === null && !this.#delivering && this.tail.cursor > 0)
      this.#send(stream, `id: ${this.tail.cursor}\n:\n\n`);
    this.#forget(stream);
    stream.res.end();
  }

  /** Writes to a stream, or holds it back while the stream is being replayed. */
  #write(stream: Stream, bytes: string | Buffer): void {
    if (stream.held) stream.held.push(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
    else this.#send(stream, bytes);
  }

  #send(stream: Stream, text: string | Buffer): void {
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

  /**
   * A page of the log, in order. The streams each event goes to are taken when the page comes
   * (a stream opened later replays it from the log). A user's unread count is asked once per
   * page, whatever the number of their streams and events.
   */
  async #deliver(events: LoggedEvent[]): Promise<void> {
    this.#delivering = true;
    try {
      await this.#deliverPage(events);
    } finally {
      this.#delivering = false;
    }
  }

  async #deliverPage(events: LoggedEvent[]): Promise<void> {
    const targets = events.map((e) =>
      e.type === 'notification'
        ? this.#byUser.get(e.user_id ?? 0)
        : STREAMED.has(e.type)
          ? this.#byStreamer.get(e.streamer_id ?? 0)
          : undefined,
    );
    const taken = targets.map((set) => (set ? [...set] : null));
    const reset = await addRanking(events, taken, [...this.#ranking], this.inPublicView);
    // Most pages go to no open stream (posts on streamers nobody is watching): nothing to encode.
    if (!taken.some(Boolean) && !reset) return;
    const users = [
      ...new Set(events.flatMap((e, i) => (e.type === 'notification' && taken[i] ? [e.user_id ?? 0] : []))),
    ];
    const unread = new Map<number, number>();
    for (const user of users) {
      // A count that could not be read: this change is not told, the next one tells the count.
      const n = await this.unread(user).catch(() => null);
      if (n !== null) unread.set(user, n);
    }
    // A signed-in stream whose session no longer names its user ends (its page reconnects as
    // whoever it is now) before it is told anything of theirs.
    const asked = new Set<Stream>();
    for (const [i, e] of events.entries()) {
      if (e.type !== 'notification') continue;
      for (const s of taken[i] ?? []) {
        if (asked.has(s) || s.cookieId === null) continue;
        asked.add(s);
        const user = await this.sessionUser(s.cookieId).catch(() => null);
        if (user === s.userId) continue;
        this.#forget(s);
        s.res.end();
      }
    }
    // Each event is encoded once for all the streams it goes to, and each stream gets the page's
    // events for it in one write; streams given the same events share those bytes. One write
    // per stream and event held a queued write apiece for every stream that a burst of posts
    // outran (docs/benchmarks.md "Stop 73").
    const encoded: (Buffer | null)[] = events.map((e, i) => {
      if (!taken[i]) return null;
      if (e.type !== 'notification') return sseEvent(e.id, e.type, sentData(e));
      const count = unread.get(e.user_id ?? 0);
      return count === undefined ? null : sseEvent(e.id, 'notification', JSON.stringify({ unread: count }));
    });
    const pages = eachOnesPage([...encoded, reset?.bytes ?? null], [...taken, reset?.streams ?? null]);
    for (const [s, bytes] of pages) if (this.#streams.has(s)) this.#write(s, bytes);
  }
}
