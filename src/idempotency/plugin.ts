import { createHash } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preValidationAsyncHookHandler,
  RouteHandlerMethod,
} from 'fastify';
import fp from 'fastify-plugin';
import { fail } from '../errors.ts';
import { HOUR, upkeep } from '../lib/clock.ts';
import { findKey, type KeptAnswer, type PendingKey, pruneKeys } from './queries.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route takes an `Idempotency-Key`: its operation keeps its answer in its own write
     * transaction (idempotency/keep.ts). A POST without it ignores the header (the sign-ins:
     * no hash of a body that holds a password is ever stored).
     */
    idempotencyKey?: true;
  }
  interface FastifyRequest {
    /** The `Idempotency-Key` of this request that no answer is kept under yet; null without one. */
    idempotency: PendingKey | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** 1 to 255 printable ASCII characters. */
const KEY = /^[\x20-\x7e]{1,255}$/;

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

function replay(reply: FastifyReply, answer: KeptAnswer) {
  reply.code(answer.status).headers(answer.headers).header(REPLAYED_HEADER, 'true');
  return reply.send(answer.body);
}

/**
 * `Idempotency-Key` on the POST routes that take it (issue 30 item 11; the IETF draft "The
 * Idempotency-Key HTTP Header Field"; issue 40): a request whose key holds an answer kept
 * within the day gets it again with `Idempotent-Replayed: true`, and the same key for another
 * request gets 422; otherwise the request runs with its key pending, and its operation keeps
 * its answer in the same transaction as its writes (keep.ts), so the key, the writes and the
 * answer commit together or not at all. Only answers of operations that committed are kept:
 * a 4xx, a 405 or a guard's 403 leaves nothing, and its retry runs again. A request that
 * failed looks at its key once more: a duplicate sent at the same time may have committed
 * meanwhile (its own insert of the key then failed and rolled its writes back), and its answer
 * is this request's answer too. A request without the header costs one header lookup.
 */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('idempotency', null);
    // The hourly upkeep, on the app's clock: keys past their day go.
    const stop = upkeep(
      app.clock,
      HOUR,
      () => pruneKeys(app.db, app.clock.now()),
      (err) => app.log.warn({ err }, 'idempotency: pruning keys'),
    );
    app.addHook('onClose', async () => stop());

    const check: preValidationAsyncHookHandler = async (request, reply) => {
      const key = request.headers[IDEMPOTENCY_HEADER];
      if (key === undefined) return;
      if (typeof key !== 'string' || !KEY.test(key)) throw fail('invalid_idempotency_key');
      const pending = {
        sender: senderOf(request, (id) => app.sessionTag(id)),
        key,
        request: fingerprint(request),
        at: app.clock.now(),
      };
      const found = await findKey(app.db, pending);
      if (found?.kind === 'replay') return replay(reply, found.answer);
      if (found?.kind === 'reused') throw fail('idempotency_key_reused');
      request.idempotency = pending;
    };

    /** The route's handler, and for a failed request with a key, what its key holds by then. */
    const keyed = (handler: RouteHandlerMethod): RouteHandlerMethod =>
      async function (this: FastifyInstance, request, reply) {
        try {
          return await handler.call(this, request, reply);
        } catch (err) {
          const pending = request.idempotency;
          if (pending === null) throw err;
          const found = await findKey(app.db, pending).catch(() => null);
          if (found?.kind === 'replay') return replay(reply, found.answer);
          if (found?.kind === 'reused') throw fail('idempotency_key_reused');
          throw err;
        }
      };

    app.addHook('onRoute', (route) => {
      if (route.config?.idempotencyKey !== true) return;
      if (![route.method].flat().includes('POST'))
        throw new Error(`${route.url}: an Idempotency-Key is for POST`);
      const current = route.preValidation;
      route.preValidation = current === undefined ? [check] : [...[current].flat(), check];
      route.handler = keyed(route.handler);
    });
  },
  { name: 'idempotency' },
);
