import { afterAll } from 'vitest';
import http from 'node:http';

/** One server-sent event as a reader sees it; `comment` for a `:` line. */
export interface SseEvent {
  event: string;
  data: unknown;
  /** The event's `id:` (the event log's id), or undefined when it had none. */
  id?: number;
}

/**
 * A raw reader of an event stream over node:http (the tests' client reads whole bodies). The
 * events arrive in `events`; `next(type)` waits for the next of a kind (with a generous bound:
 * another instance's change is an outside event).
 */
export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of an answer that is not a stream (an error). */
  body: string;
  events: SseEvent[];
  comments: number;
  /** The last `id:` the stream sent, as a browser's EventSource keeps it for its reconnection. */
  lastEventId: string;
  /** Every `id:` the stream sent, in order, with an event or alone. */
  ids: number[];
  next(event: string, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export function openStream(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
  /** The client's own address (any 127.0.0.x reaches a server on 127.0.0.1): a client of its own. */
  localAddress?: string,
): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const options = {
      headers: { accept: 'text/event-stream', ...headers },
      ...(localAddress ? { localAddress } : {}),
    };
    const req = http.get(baseUrl + path, options, (res) => {
      const waiters: { event: string; seen: number; resolve: (e: SseEvent) => void }[] = [];
      let buffer = '';
      let endedResolve: () => void = () => undefined;
      const ended = new Promise<void>((r) => (endedResolve = r));
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: '',
        events: [],
        comments: 0,
        lastEventId: '',
        ids: [],
        ended,
        next(event, timeoutMs = 5_000) {
          const seen = stream.events.length;
          return new Promise((ok, fail) => {
            const timer = setTimeout(
              () => fail(new Error(`no ${event} event within ${timeoutMs} ms`)),
              timeoutMs,
            );
            waiters.push({
              event,
              seen,
              resolve: (e) => {
                clearTimeout(timer);
                ok(e);
              },
            });
          });
        },
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      const isStream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      res.on('data', (chunk: string) => {
        if (!isStream) {
          stream.body += chunk;
          return;
        }
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          let comment = false;
          let id: number | undefined;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comment = true;
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
            else if (line.startsWith('id: ')) {
              stream.lastEventId = line.slice(4);
              id = Number(line.slice(4));
              stream.ids.push(id);
            }
          }
          if (data.length === 0) {
            if (comment) stream.comments++;
            continue;
          }
          const e: SseEvent = {
            event,
            data: JSON.parse(data.join('\n')) as unknown,
            ...(id === undefined ? {} : { id }),
          };
          stream.events.push(e);
          for (const w of waiters.splice(0)) {
            if (w.event === event) w.resolve(e);
            else waiters.push(w);
          }
        }
      });
      res.on('end', endedResolve);
      res.on('close', endedResolve);
      if (isStream) resolve(stream);
      else res.on('end', () => resolve(stream));
    });
    req.on('error', reject);
  });
}

/**
 * A file's way to open streams on its app (`defaultUrl`), each closed after the file's tests:
 * `stream(path, headers, url)`.
 */
export function streamsOf(defaultUrl: string) {
  const open: SseStream[] = [];
  afterAll(() => open.forEach((s) => s.close()));
  return async (path: string, headers: Record<string, string> = {}, url = defaultUrl) => {
    const s = await openStream(url, path, headers);
    open.push(s);
    return s;
  };
}

/** A client's cookies as a `cookie` header, for a stream opened beside it. */
export const cookieOf = (c: { cookies: Map<string, string> }) => ({
  cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
});
