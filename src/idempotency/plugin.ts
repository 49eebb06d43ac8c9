import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../errors.ts';
import { type Claim, claimKey, forget, keepAnswer } from './queries.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The claimed `Idempotency-Key` of this request, whose answer is kept; null without one. */
    idempotency: Claim | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** 1 to 255 printable ASCII characters. */
const KEY = /^[\x20-\x7e]{1,255}$/;
/** The headers of a kept answer that its replay carries (never a cookie). */
const REPLAYED = ['content-type', 'location'] as const;
/** 4xx answers that ask the client to try again (a challenge, a rate limit): not kept. */
const RETRYABLE = new Set([408, 425, 428, 429]);

const kept = (status: number) => status >= 200 && status < 500 && !RETRYABLE.has(status) && status !== 304;

/**
 * Whose key it is, so that no client reads another's answer: the signed-in user, else the
 * browser session, else the guest's address tag.
 */
function senderOf(request: FastifyRequest, tagOf: (cookieId: string) => string): string {
  const user = request.session?.data.oauth_user?.id;
  if (user !== undefined) return `user:${user}`;
  const cookieId = request.session?.cookieId;
  return cookieId ? `session:${tagOf(cookieId)}` : `guest:${request.guestTag}`;
}

const fingerprint = (request: FastifyRequest) =>
  createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');

function replay(
  reply: FastifyReply,
  answer: { status: number; headers: Record<string, string>; body: string },
) {
  reply.code(answer.status).headers(answer.headers).header(REPLAYED_HEADER, 'true');
  return reply.send(answer.body);
}

/**
 * `Idempotency-Key` on POST requests (issue 30 item 11; the IETF draft "The Idempotency-Key
 * HTTP Header Field"): the first request with a key claims it in the database, where every
 * instance sees it, and its answer (2xx or 4xx) is kept for a day; a retry of the same
 * request gets that answer again with `Idempotent-Replayed: true`. The same key for another
 * request: 422; while the first still runs: 409. A request without the header costs one
 * header lookup.
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('idempotency', null);

    const check: preValidationAsyncHookHandler = async (request, reply) => {
      const key = request.headers[IDEMPOTENCY_HEADER];
      if (key === undefined) return;
      if (typeof key !== 'string' || !KEY.test(key)) throw fail('invalid_idempotency_key');
      const requestKey = {
        sender: senderOf(request, (id) => app.sessionTag(id)),
        key,
        request: fingerprint(request),
      };
      const outcome = await claimKey(app.db, requestKey, app.clock.now());
      if (outcome.kind === 'claimed') request.idempotency = outcome.claim;
      else if (outcome.kind === 'replay') return replay(reply, outcome.answer);
      else throw fail(outcome.kind === 'reused' ? 'idempotency_key_reused' : 'idempotency_key_in_use');
    };
    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      if (!methods.includes('POST')) return;
      const current = route.preValidation;
      route.preValidation = current === undefined ? [check] : [...[current].flat(), check];
    });

    // Registered before compression (app.ts), so the answer is kept as the handler made it;
    // the session and the guest tag it reads are there by the time a request comes.
    app.addHook('onSend', (request, reply, payload, done) => {
      const claim = request.idempotency;
      if (claim === null) return done(null, payload);
      request.idempotency = null;
      const status = reply.statusCode;
      const body = payload === undefined || payload === null ? '' : payload;
      const work =
        kept(status) && typeof body === 'string'
          ? keepAnswer(app.db, claim, { status, headers: replayedHeaders(reply), body })
          : forget(app.db, claim);
      work.then(
        () => done(null, payload),
        (err: unknown) => {
          // The answer still goes out; the claim is taken over after a minute.
          request.log.warn({ err }, 'idempotency: answer not kept');
          done(null, payload);
        },
      );
    });
  },
  { name: 'idempotency' },
);

function replayedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}
