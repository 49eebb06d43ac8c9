import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isUnavailable } from '../db/dialect.ts';
import { DomainError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The message for input that fails the route's schema, by field name ('*' for any);
     * SPEC.md's message for that field, so a schema failure reads like the handler's own.
     */
    inputErrors?: Record<string, string>;
  }
}

const FASTIFY_CLIENT_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported media type'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'Unsupported media type'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Payload too large'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Bad request'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Invalid JSON'],
  INVALID_JSON: [400, 'Invalid JSON'],
};

/**
 * Turns every error into `{"error": message}`. Domain errors carry SPEC.md's message and
 * status; a 5xx never shows its detail to the client, the log gets it with the request id.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      if (err instanceof DomainError) {
        return reply.code(err.statusCode).headers(err.headers).send({ error: err.message });
      }
      if (err.validation) {
        const messages = request.routeOptions.config.inputErrors ?? {};
        const first = err.validation[0];
        const field =
          first?.instancePath.split('/')[1] ??
          (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
        const message = (field && messages[field]) ?? messages['*'] ?? 'Invalid input';
        return reply.code(400).send({ error: message });
      }
      const known = err.code ? FASTIFY_CLIENT_ERRORS[err.code] : undefined;
      if (known) return reply.code(known[0]).send({ error: known[1] });
      if (isUnavailable(err)) {
        request.log.warn({ err }, 'database unavailable');
        return reply.code(503).header('retry-after', '5').send({ error: 'Service unavailable' });
      }
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
        return reply.code(err.statusCode).send({ error: 'Bad request' });
      }
      request.log.error({ err }, 'unexpected error');
      return reply.code(500).send({ error: 'Internal error' });
    });

    app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not found' }));
  },
  { name: 'errors' },
);
