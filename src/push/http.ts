import { Agent as HttpsAgent } from 'node:https';
import { http } from '../lib/node-http.ts';
import { type OutboundResult, send } from '../lib/outbound.ts';

/** What came of one POST to a push service: its answer, or none. */
export type PushResult = OutboundResult;

/** Connections kept to the push services (thousands of messages to one of them at a go-live). */
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 32 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 32 }),
};

/** An answer's body is read up to this size (push services answer with a few bytes or none). */
const MAX_ANSWER = 16 * 1024;

/**
 * POSTs one encrypted message as web-push prepared it (headers and body). A request that gets
 * no answer within `timeoutMs` is given up as no answer. The error names the failure, never
 * the endpoint (a capability URL).
 */
export function postMessage(
  endpoint: string,
  headers: Record<string, string | number>,
  body: Buffer | null,
  timeoutMs: number,
): Promise<PushResult> {
  return send(endpoint, { method: 'POST', headers, body, agents, timeoutMs, maxAnswer: MAX_ANSWER });
}
