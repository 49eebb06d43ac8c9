import type { FastifyRequest } from 'fastify';
import { ERRORS } from '../errors.ts';
import { escapeHtml } from '../lib/html.ts';
import { ErrorBody, Html } from '../lib/schemas.ts';

/**
 * A sign-in that the database failed (a full disk, an outage) is still a 503 with
 * `Retry-After`, but the browser that landed on it is shown a page, not JSON: one that sends
 * it on at once to `target` (the page the sign-in started from, `auth_error` in its query), as
 * the sign-in's other failures do by their redirect. So is one that failed in a way the
 * service did not expect (a 500, its detail in the log only).
 */
export function outagePage(target: string): string {
  const to = escapeHtml(target);
  const words = ERRORS.service_unavailable[1];
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${to}"><title>${words}</title></head>
<body><p><a href="${to}">${words}</a></p></body></html>
`;
}

/** A page that sends the browser back, or the JSON error of `said`. */
const pageOrJson = (said: string) => ({
  ...Html(said),
  content: { ...Html(said).content, 'application/json': { schema: ErrorBody } },
});

/** The sign-in routes' 503 and 500: the page above, or the JSON error (load shedding; the other actions). */
export const OUTAGE_ANSWER = {
  500: pageOrJson(
    'The sign-in failed unexpectedly: the same page, `auth_error=service_unavailable` (JSON for the other actions)',
  ),
  503: pageOrJson(
    'The database failed the sign-in: a page that sends the browser back with `auth_error` (JSON when load is shed)',
  ),
};

/** The page's own address a request's sign-in goes back to, kept while it runs for its outage page. */
export const signInTargets = new WeakMap<FastifyRequest, string | null>();
