import type { IncomingMessage, ServerResponse } from 'node:http';

/** Pieces shared by the fake outside services (real HTTP servers on 127.0.0.1). */

/** Answers JSON; an empty-string body answers an empty body. */
export const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body === '' ? '' : JSON.stringify(body));
};

/** A form-encoded request body as a plain object. */
export async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return Object.fromEntries(new URLSearchParams(raw));
}
