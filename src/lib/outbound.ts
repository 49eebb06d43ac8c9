import type { Agent, ClientRequest, IncomingHttpHeaders } from 'node:http';
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { http } from './node-http.ts';

/** One call out: to a provider's API, a Discord webhook, a push service. */
export interface Outbound {
  method: 'GET' | 'POST';
  headers?: Record<string, string | number>;
  body?: string | Buffer | null;
  /** Kept connections to use; none (the default): a connection of the call's own, closed after it. */
  agents?: { http: Agent; https: HttpsAgent };
  /**
   * The call is safe to make twice (a read, a token request): one that fails on a kept
   * connection before any answer (the other side had closed it as it went out) is made again
   * once, on a connection of its own, within the same time limit. Never for a call that must
   * not happen twice (Discord, push).
   */
  repeatable?: boolean;
  /** From the call's start to its answer's last byte. */
  timeoutMs: number;
  /** The answer's body is kept up to this many bytes; a longer one is cut off there. */
  maxAnswer: number;
}

export type OutboundResult =
  | { kind: 'answer'; status: number; headers: IncomingHttpHeaders; body: string }
  | {
      kind: 'no-answer';
      /** The whole request had been handed to the connection: the other side may have acted on it. */
      sent: boolean;
      timedOut: boolean;
      /** What failed (a system error's code, or the message), never the URL (it may hold a token). */
      error: string;
      /** The failure's message, as Node.js gives it. */
      message: string;
    };

/** A header of an answer (lower-case name), its values joined as one; null when absent. */
export function headerOf(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The service's one way to call out, over Node.js's own HTTP client (not fetch: lib/node-http.ts
 * says why). Redirects are not followed; every failure (no connection, a reset, the time limit)
 * is an answer of its own kind, never a thrown error, so each caller maps it to what it reports.
 */
export function send(url: string, call: Outbound): Promise<OutboundResult> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const request = secure ? httpsRequest : http.request;
    let sent = false;
    let settled = false;
    /** Set once the answer's status came: what came by then is the answer, even at the time limit. */
    let answered: (() => void) | null = null;
    const done = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const attempt = (agent: Agent | HttpsAgent | false): ClientRequest => {
      const req = request(target, { method: call.method, agent, headers: call.headers }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = () =>
          done({
            kind: 'answer',
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        answered = answer;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= call.maxAnswer) chunks.push(chunk);
          else res.destroy();
        });
        res.on('end', answer);
        // Cut off past maxAnswer, or the connection lost after the status came: what came is the answer.
        res.on('error', answer);
        res.on('close', answer);
      });
      req.on('finish', () => (sent = true));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (req !== current) return;
        if (call.repeatable && req.reusedSocket && answered === null && !settled) {
          sent = false;
          current = attempt(false);
          return;
        }
        done({
          kind: 'no-answer',
          sent,
          timedOut: false,
          error: err.code ?? err.message,
          message: err.message,
        });
      });
      req.end(call.body ?? undefined);
      return req;
    };
    let current: ClientRequest | undefined;
    const timer = setTimeout(() => {
      const message = `no answer within ${call.timeoutMs} ms`;
      if (answered) answered();
      else done({ kind: 'no-answer', sent, timedOut: true, error: message, message });
      current?.destroy();
    }, call.timeoutMs);
    try {
      current = attempt(call.agents ? (secure ? call.agents.https : call.agents.http) : false);
    } catch (err) {
      // A call Node.js refuses to make (a header no request can carry: a provider's garbled
      // token with a line break) is no answer too. Thrown, it failed its caller with a 500 and
      // left the timer to throw at the time limit, which ended the process.
      const { code, message } = err as NodeJS.ErrnoException;
      done({ kind: 'no-answer', sent: false, timedOut: false, error: code ?? message, message });
    }
  });
}
