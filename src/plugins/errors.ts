import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { isUnavailable } from '../db/dialect.ts';
import { DomainError } from '../errors.ts';
import { securityHeaders } from './security-headers.ts';

const FASTIFY_CLIENT_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported media type'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'Unsupported media type'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Payload too large'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Bad request'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Invalid JSON'],
  FST_ERR_BAD_URL: [400, 'Bad request'],
  FST_CP_ERR_INVALID_CONTENT_ENCODING: [415, 'Unsupported media type'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'Bad request'],
};

interface SchemaNode {
  errorMessage?: string;
  properties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
}

/**
 * The message for a schema failure: the `errorMessage` of the field that failed (the deepest
 * schema on its path that has one), so the answer names that field with SPEC.md's message.
 */
export function schemaMessage(
  schema: FastifySchema | undefined,
  context: string | undefined,
  error: { instancePath: string; params?: unknown } | undefined,
): string {
  const part = { body: schema?.body, querystring: schema?.querystring, params: schema?.params }[
    (context ?? 'body') as 'body'
  ] as SchemaNode | undefined;
  const path = (error?.instancePath ?? '').split('/').filter(Boolean);
  const missing = (error?.params as { missingProperty?: string } | undefined)?.missingProperty;
  if (missing) path.push(missing);
  let node = part;
  let message = part?.errorMessage;
  for (const key of path) {
    node = node?.properties?.[key] ?? node?.anyOf?.find((s) => s.properties?.[key])?.properties?.[key];
    if (!node) break;
    message = node.errorMessage ?? message;
  }
  return message ?? 'Invalid input';
}

function serviceUnavailable(reply: FastifyReply) {
  return reply.code(503).header('retry-after', '5').send({ error: 'Service unavailable' });
}

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
        const message = schemaMessage(request.routeOptions.schema, err.validationContext, err.validation[0]);
        return reply.code(400).send({ error: message });
      }
      const known = err.code ? FASTIFY_CLIENT_ERRORS[err.code] : undefined;
      if (known) return reply.code(known[0]).send({ error: known[1] });
      if (isUnavailable(err)) {
        request.log.warn({ err }, 'database unavailable');
        return serviceUnavailable(reply);
      }
      if (err.statusCode === 429) {
        return reply.code(429).send({ error: 'Too many requests' });
      }
      if (err.statusCode === 503) return serviceUnavailable(reply);
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

/**
 * Fastify's `frameworkErrors`: failures before routing (a URL that is not valid percent-
 * encoded UTF-8) get the same error shape and headers as every other answer.
 */
export function frameworkErrors(https: boolean) {
  return (err: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const [status, message] = FASTIFY_CLIENT_ERRORS[err.code] ?? [400, 'Bad request'];
    void reply.code(status).headers(securityHeaders(https)).send({ error: message });
  };
}

const RAW_CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request header fields too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request timeout'],
};

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (a malformed request
 * line, an oversized header) never reaches Fastify; it still gets a JSON error with the
 * security headers, written straight to the socket.
 */
export function clientErrorHandler(https: boolean) {
  const headers = Object.entries(securityHeaders(https))
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, reason, message] = RAW_CLIENT_ERRORS[err.code ?? ''] ?? [
      400,
      'Bad Request',
      'Bad request',
    ];
    const body = JSON.stringify({ error: message });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\n${headers}\r\n${body}`,
    );
  };
}
