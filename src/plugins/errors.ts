import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { failureOf } from '../db/failures.ts';
import { deletedMeanwhile } from '../db/write-failure.ts';
import { DomainError, errorBody, ERRORS, type ErrorCode } from '../errors.ts';
import { securityHeaders } from './security-headers.ts';

const FASTIFY_CLIENT_ERRORS: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_BAD_URL: 'bad_request',
  FST_CP_ERR_INVALID_CONTENT_ENCODING: 'unsupported_media_type',
  FST_ERR_ASYNC_CONSTRAINT: 'bad_request',
};

interface SchemaNode {
  errorCode?: ErrorCode;
  errorField?: string;
  properties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
}

/**
 * The error for a schema failure: the `errorCode` of the field that failed (the deepest
 * schema on its path that has one), so the answer names that field with SPEC.md's message.
 */
export function schemaError(
  schema: FastifySchema | undefined,
  context: string | undefined,
  error: { instancePath: string; params?: unknown } | undefined,
): DomainError {
  const part = { body: schema?.body, querystring: schema?.querystring, params: schema?.params }[
    (context ?? 'body') as 'body'
  ] as SchemaNode | undefined;
  const path = (error?.instancePath ?? '').split('/').filter(Boolean);
  const missing = (error?.params as { missingProperty?: string } | undefined)?.missingProperty;
  if (missing) path.push(missing);
  let node = part;
  let found: SchemaNode | undefined = part?.errorCode ? part : undefined;
  for (const key of path) {
    node = node?.properties?.[key] ?? node?.anyOf?.find((s) => s.properties?.[key])?.properties?.[key];
    if (!node) break;
    if (node.errorCode) found = node;
  }
  if (!found?.errorCode) return new DomainError('invalid_input');
  if (found.errorCode === 'invalid_field') {
    return new DomainError('invalid_field', { message: `Invalid ${found.errorField ?? 'input'}` });
  }
  if (found.errorCode === 'invalid_limit') {
    return new DomainError('invalid_limit', {
      message: `limit must be an integer from 1 to ${found.errorField}`,
    });
  }
  return new DomainError(found.errorCode);
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The site's own "not found" page for an unknown page address (pages/routes.ts sets it):
     * null leaves the request to the JSON 404.
     */
    notFoundPage: {
      answer: ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | null) | null;
    };
    /**
     * A feature's own answer for an address under its prefix that no route could read (too
     * long for the router, not valid percent-encoding, no such route): the chat line's 404
     * line under `/bot/` (chat-line/routes.ts), not the JSON error.
     */
    strayAnswers: Map<string, (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>>;
  }
  interface FastifyContextConfig {
    /**
     * A route a browser navigates to (the sign-in's): the HTML page of its 503 and its 500 for
     * this request, or null for the JSON error.
     */
    unavailablePage?: (request: FastifyRequest) => string | null;
    /**
     * Who may call at all, where knowing it costs a read (comments' `auth_enabled`): asked only
     * when the request is refused for its input or its rate (400, 413, 415, 429), and its own
     * refusal answers instead (DECISIONS.md "Errors": the caller before the input). A caller
     * known from the session alone is asked before the body is read (the routes' `preParsing`).
     */
    callerFirst?: (request: FastifyRequest) => Promise<void>;
  }
}

/** The stray answer for this request's address, if a prefix has one (GET and HEAD only). */
function strayAnswer(request: FastifyRequest) {
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  for (const [prefix, answer] of request.server.strayAnswers)
    if (request.url.startsWith(prefix)) return answer;
  return undefined;
}

/** The refusals of a request's input or rate, which a route's `callerFirst` answers before. */
const INPUT_REFUSALS = new Set([400, 413, 415, 429]);

function send(reply: FastifyReply, code: ErrorCode) {
  return reply.code(ERRORS[code][0]).send(errorBody(code));
}

/**
 * A 503 (with `Retry-After`) or a 500: JSON, or the route's page where a browser navigated to it
 * (the sign-in's: it sends the browser back to its page, as the sign-in's other failures do).
 */
function failed(
  request: FastifyRequest,
  reply: FastifyReply,
  code: 'service_unavailable' | 'internal_error',
) {
  // A redirect whose session could not be written goes nowhere.
  reply.removeHeader('location').code(ERRORS[code][0]);
  if (code === 'service_unavailable') reply.header('retry-after', '5');
  const page = request.routeOptions.config.unavailablePage?.(request) ?? null;
  if (page !== null) return reply.type('text/html; charset=utf-8').send(page);
  return reply.send(errorBody(code));
}

/**
 * Turns every error into `{"error": message, "code": code}` (errors.ts). Domain errors carry SPEC.md's message and
 * status; a 5xx never shows its detail to the client, the log gets it with the request id.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(async (refused: FastifyError, request, reply) => {
      let err = refused;
      const callerFirst = request.routeOptions.config.callerFirst;
      if (callerFirst && INPUT_REFUSALS.has(err.statusCode ?? 0)) {
        try {
          await callerFirst(request);
        } catch (caller) {
          err = caller as FastifyError;
        }
      }
      const domain =
        err instanceof DomainError
          ? err
          : err.validation
            ? schemaError(request.routeOptions.schema, err.validationContext, err.validation[0])
            : (deletedMeanwhile(err) ?? undefined);
      if (domain) {
        return reply
          .code(domain.statusCode)
          .headers(domain.headers)
          .send({ error: domain.message, code: domain.code, ...domain.extra });
      }
      const known = err.code ? FASTIFY_CLIENT_ERRORS[err.code] : undefined;
      if (known) return send(reply, known);
      const failure = failureOf(err);
      if (failure) {
        // A full disk fails every write while reads go on: 503 (a proxy retries elsewhere), said
        // in the log once a minute, counted, and /healthz answers 503 meanwhile; a database that
        // does not answer is said once a minute too, with the requests it failed (db/failures.ts).
        const failures = app.database.failures.saw(failure, app.clock.now().getTime());
        const where = { err, method: request.method, route: request.routeOptions.url ?? null, failures };
        // A deadlock or serialization failure rolled the write back: the client may send it again.
        if (failure === 'conflict') request.log.warn({ err }, 'database conflict: the write was rolled back');
        else if (failures === null) return failed(request, reply, 'service_unavailable');
        else if (failure === 'unavailable') request.log.warn(where, 'database unavailable: requests get 503');
        else request.log.error(where, 'disk full: writes fail with 503 until it has room again');
        return failed(request, reply, 'service_unavailable');
      }
      if (err.statusCode === 429) return send(reply, 'too_many_requests');
      if (err.statusCode === 503) return failed(request, reply, 'service_unavailable');
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
        return reply.code(err.statusCode).send(errorBody('bad_request'));
      }
      request.log.error({ err }, 'unexpected error');
      return failed(request, reply, 'internal_error');
    });

    // The end of a full disk or an outage is said once, after its once-a-minute lines.
    const stop = app.database.failures.onRecovered((kind, failures, sinceMs) =>
      app.log.info(
        { failures, since: new Date(sinceMs).toISOString() },
        kind === 'disk_full' ? 'disk takes writes again' : 'database answers again',
      ),
    );
    app.addHook('onClose', async () => void stop());

    app.decorate('notFoundPage', { answer: null });
    app.decorate('strayAnswers', new Map());
    app.setNotFoundHandler(
      (request, reply) =>
        strayAnswer(request)?.(request, reply) ??
        app.notFoundPage.answer?.(request, reply) ??
        send(reply, 'not_found'),
    );
  },
  { name: 'errors' },
);

/**
 * Fastify's `frameworkErrors`: failures before routing (a URL that is not valid percent-
 * encoded UTF-8, a part too long for the router) get the same error shape and headers as every
 * other answer, or a prefix's own stray answer.
 */
export function frameworkErrors(https: boolean) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const stray = strayAnswer(request);
    if (stray) return void stray(request, reply);
    const code = FASTIFY_CLIENT_ERRORS[err.code] ?? 'bad_request';
    void reply.code(ERRORS[code][0]).headers(securityHeaders(https)).send(errorBody(code));
  };
}

const RAW_CLIENT_ERRORS: Record<string, [reason: string, code: ErrorCode]> = {
  HPE_HEADER_OVERFLOW: ['Request Header Fields Too Large', 'header_too_large'],
  ERR_HTTP_REQUEST_TIMEOUT: ['Request Timeout', 'request_timeout'],
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
    const [reason, code] = RAW_CLIENT_ERRORS[err.code ?? ''] ?? ['Bad Request', 'bad_request'];
    const status = ERRORS[code][0];
    const body = JSON.stringify(errorBody(code));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\n${headers}\r\n${body}`,
    );
  };
}
