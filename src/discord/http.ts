import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What came of one POST: Discord's answer, or no answer and whether the request had left. */
export type PostResult =
  | { kind: 'answer'; status: number; headers: IncomingHttpHeaders; body: string }
  | { kind: 'no-answer'; sent: boolean; error: string };

/** Answers are read up to this size (Discord's are a few hundred bytes). */
const MAX_ANSWER = 16 * 1024;

/**
 * POSTs JSON on a connection of its own (no keep-alive: a reused socket that the other side
 * had closed fails after the request was written, and then nobody knows whether it arrived).
 * `sent` tells whether the whole request was handed to the connection before it failed: if
 * not, Discord cannot have acted on it and it is safe to try again; if so, it may have.
 */
export function postJson(url: string, body: string, timeoutMs: number): Promise<PostResult> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let sent = false;
    let settled = false;
    const done = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = request(
      target,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'streamer-rating (self-hosted; Discord webhooks)',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < MAX_ANSWER) text += chunk;
        });
        res.on('end', () =>
          done({ kind: 'answer', status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
        res.on('error', () =>
          done({ kind: 'answer', status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('finish', () => (sent = true));
    // The message names the failure, never the URL (it holds the webhook's token).
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ kind: 'no-answer', sent, error: err.code ?? err.message }),
    );
    req.end(body);
  });
}
