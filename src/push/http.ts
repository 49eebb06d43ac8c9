import { Agent as HttpAgent, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What came of one POST to a push service: its answer, or none. */
export type PushResult =
  { kind: 'answer'; status: number; headers: IncomingHttpHeaders } | { kind: 'no-answer'; error: string };

/** Connections kept to the push services (thousands of messages to one of them at a go-live). */
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 32 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 32 }),
};

/** An answer's body is read and dropped, up to this size. */
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
  return new Promise((resolve) => {
    const target = new URL(endpoint);
    const secure = target.protocol === 'https:';
    const request = secure ? httpsRequest : httpRequest;
    let settled = false;
    const done = (result: PushResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = request(
      target,
      { method: 'POST', agent: secure ? agents.https : agents.http, headers },
      (res) => {
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER) res.destroy();
        });
        const answer = () => done({ kind: 'answer', status: res.statusCode ?? 0, headers: res.headers });
        res.on('end', answer);
        res.on('close', answer);
        res.on('error', answer);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ kind: 'no-answer', error: err.code ?? err.message }),
    );
    req.end(body ?? undefined);
  });
}
