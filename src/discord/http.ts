import { type OutboundResult, send } from '../lib/outbound.ts';

/** What came of one POST: Discord's answer, or no answer and whether the request had left. */
export type PostResult = OutboundResult;

/** Answers are read up to this size (Discord's are a few hundred bytes). */
const MAX_ANSWER = 16 * 1024;

/**
 * POSTs JSON on a connection of its own (no keep-alive: a reused socket that the other side
 * had closed fails after the request was written, and then nobody knows whether it arrived).
 * `sent` tells whether the whole request was handed to the connection before it failed: if
 * not, Discord cannot have acted on it and it is safe to try again; if so, it may have.
 */
export function postJson(url: string, body: string, timeoutMs: number): Promise<PostResult> {
  return send(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'user-agent': 'streamer-rating (self-hosted; Discord webhooks)',
    },
    body,
    timeoutMs,
    maxAnswer: MAX_ANSWER,
  });
}
