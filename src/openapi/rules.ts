import { ERRORS, type ErrorCode } from '../errors.ts';
import { DOCUMENTED } from '../lib/schemas.ts';
import type { Role } from '../plugins/guards.ts';
import { HEADERS, IDEMPOTENCY_KEY } from './headers.ts';

/**
 * The rules that give every operation of the API document the answers and headers the
 * service's plugins add to it, so that no route lists them by hand and a new route gets them
 * by default:
 *
 * - every operation: 500 (`internal_error`) and 503 with `Retry-After` (load shedding, the
 *   database away); POST, PUT, PATCH and DELETE: 403 (the cross-site rule, before anything
 *   else, 405 included), 400 (`invalid_json`), 413 and 415 (plugins/parsers.ts); a POST that
 *   takes an `Idempotency-Key`: the header, 409 and 422 and `Idempotent-Replayed` (idempotency/); a path
 *   parameter: 400 (not valid percent-encoding, or over 200 characters);
 * - a guard that is not public: 401; a rate limit: 429 with `Retry-After` and the rate-limit
 *   headers on every answer; a session read: the `session` security and `Set-Cookie`;
 * - 3xx: `Location`; 405: `Allow`; an operation that answers 304: `ETag` on it (and, where
 *   given, on 2xx), and neither 304 nor 3xx has a body;
 * - input schemas show their documented twins (lib/schemas.ts), and the field's error code
 *   as `x-error-code`; a request body is required only when some field is;
 * - a schema with a `title` is a named component (`Streamer`, `Comment`, `Error`, ...), so
 *   the generated client names its types; `operationId` comes from the method and the path.
 */

/** Where the route transform leaves each operation's facts for these rules. */
export const ROUTE_FACTS = 'x-route-facts';

export interface RouteFacts {
  methods: string[];
  /** The roles its guard can ask for (openapi/openapi.ts `rolesOf`). */
  roles: Role[];
  /** It reads the session cookie. */
  session: boolean;
  /** It is rate limited (when RATE_LIMIT is on). */
  limited: boolean;
  /** It takes an `Idempotency-Key` (idempotency/plugin.ts). */
  keyed: boolean;
}

type Json = Record<string, unknown>;
interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  responses?: Record<string, Response>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json; encoding?: Json }> };
  parameters?: { schema?: unknown; required?: boolean; example?: unknown }[];
  security?: Record<string, string[]>[];
  [ROUTE_FACTS]?: RouteFacts;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown>; headers?: Record<string, unknown> };
}

const UNSAFE = new Set(['post', 'put', 'patch', 'delete']);

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const refRequired = (name: string) => ({ ...HEADERS[name], required: true });

/** What each error status means, with the catalogue's messages of that status. */
function errorDescription(status: number): string {
  const codes = (Object.keys(ERRORS) as ErrorCode[]).filter((c) => ERRORS[c][0] === status);
  const named = codes.map((c) => `\`${c}\``).join(', ');
  return named ? `Error (${named})` : 'Error';
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** An error answer's schema with members beyond `Error`'s, titled `…Error` (health/routes.ts). */
const ownError = (content: { schema?: unknown }) => /.Error$/.test(String((content.schema as Json)?.title));

function errorResponse(status: number): Response {
  return { description: errorDescription(status), content: ERROR_CONTENT };
}

/** `getApiStreamers`-like names, unique per method and path. */
export function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((s) => s !== '' && s !== 'api')
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment)?.[1];
      const parts = (param ?? segment).split(/[^A-Za-z0-9]+/).filter(Boolean);
      return param ? ['By', ...parts] : parts;
    })
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return method.toLowerCase() + (words.length > 0 ? words.join('') : 'Root');
}

/** Every schema node of a document part, visited children first, replaced by what `visit` returns. */
function mapSchemas(node: unknown, visit: (schema: Json) => unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => mapSchemas(n, visit));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = mapSchemas(v, visit);
  return visit(out);
}

/** Input schemas as the document shows them: twins in place, error codes as `x-error-code`. */
function documentInput(schema: Json): Json {
  const twin = schema[DOCUMENTED] as Json | undefined;
  if (twin) return documentInput(twin);
  if (!('errorCode' in schema) && !('errorField' in schema)) return schema;
  const { errorCode, errorField: _, ...rest } = schema;
  return { ...rest, 'x-error-code': errorCode };
}

/** Named components from titled schemas; the same title must mean the same schema. */
function hoist(doc: Document): void {
  const schemas = (doc.components.schemas ??= {});
  const seen = new Map<string, string>();
  const replace = (schema: Json): unknown => {
    const title = schema.title;
    if (typeof title !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(title)) return schema;
    const text = JSON.stringify(schema);
    const before = seen.get(title);
    if (before !== undefined && before !== text) {
      throw new Error(`two different schemas are titled ${title} in the API document`);
    }
    seen.set(title, text);
    schemas[title] = schema;
    return { $ref: `#/components/schemas/${title}` };
  };
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      if (op.requestBody) op.requestBody = mapSchemas(op.requestBody, replace) as Operation['requestBody'];
      if (op.parameters) op.parameters = mapSchemas(op.parameters, replace) as Operation['parameters'];
      if (op.responses) op.responses = mapSchemas(op.responses, replace) as Operation['responses'];
    }
  }
}

const resolve = (doc: Document, schema: Json | undefined): Json | undefined => {
  const target = typeof schema?.$ref === 'string' ? /([^/]+)$/.exec(schema.$ref)?.[1] : undefined;
  return target ? (doc.components.schemas?.[target] as Json | undefined) : schema;
};

/** A value for a parameter a request must carry, so tools that build requests (Dredd) can. */
function exampleOf(schema: Json | undefined): unknown {
  if (!schema) return 'x';
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants?.[0]) return exampleOf(variants[0]);
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return true;
  return 'x';
}

/** Does a body of this schema need a field (one it names, or any: `minProperties`), so a request must send a body? */
function needsBody(doc: Document, schema: Json | undefined): boolean {
  const s = resolve(doc, schema);
  if (!s) return false;
  const variants = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (variants) return variants.every((v) => needsBody(doc, v));
  return (Array.isArray(s.required) && s.required.length > 0) || Number(s.minProperties ?? 0) > 0;
}

/**
 * Can a form (text values, one per name, objects as `r[s]=5`: plugins/parsers.ts) make a request
 * this body takes? Not when a field it requires is a list (one variant will do); true and false
 * are the texts `true` and `false` (lib/input.ts `booleanField`, `truthy`).
 */
function formCarries(doc: Document, schema: Json | undefined): boolean {
  const s = resolve(doc, schema);
  if (!s) return true;
  const variants = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (variants) return variants.some((v) => formCarries(doc, v));
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  return required.every((name) => resolve(doc, props[name])?.type !== 'array');
}

/** Form bodies send objects as `r[s]=5` (plugins/parsers.ts), which OpenAPI calls deepObject. */
function formEncoding(doc: Document, schema: Json | undefined): Json | undefined {
  const s = resolve(doc, schema);
  const variants = ((s?.anyOf ?? s?.oneOf) as Json[] | undefined) ?? (s ? [s] : []);
  const encoding: Json = {};
  for (const variant of variants) {
    const props = (resolve(doc, variant)?.properties ?? {}) as Record<string, Json>;
    for (const [name, prop] of Object.entries(props)) {
      if (resolve(doc, prop)?.type === 'object') encoding[name] = { style: 'deepObject', explode: true };
    }
  }
  return Object.keys(encoding).length > 0 ? encoding : undefined;
}

function addShared(method: string, path: string, op: Operation, facts: RouteFacts): void {
  const responses = (op.responses ??= {});
  const add = (status: number) => void (responses[String(status)] ??= errorResponse(status));
  add(500);
  add(503);
  if (UNSAFE.has(method)) for (const status of [400, 403, 413, 415]) add(status);
  const keyed = method === 'post' && facts.keyed;
  if (keyed) {
    for (const status of [409, 422]) add(status);
    op.parameters = [...(op.parameters ?? []), IDEMPOTENCY_KEY];
  }
  // A path parameter that is not valid percent-encoded UTF-8, or longer than 200 characters.
  if (path.includes('{')) add(400);
  if (facts.roles.some((r) => r !== 'public')) add(401);
  if (facts.limited) add(429);

  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status);
    if (code >= 400) {
      if (!response.description || response.description === 'Default Response') {
        response.description = errorDescription(code);
      }
      // Errors are JSON, `Error` or one of its own (`HealthError`); a page's error (an HTML 404) keeps its page.
      const content = Object.entries(response.content ?? {});
      const pages = content.filter(([type]) => !type.includes('json'));
      const own = content.filter(([type, c]) => type.includes('json') && ownError(c));
      response.content = { ...Object.fromEntries(pages), ...ERROR_CONTENT, ...Object.fromEntries(own) };
    }
    const headers = (response.headers ??= {});
    if (code === 429 || code === 503) headers['Retry-After'] = refRequired('Retry-After');
    if (code === 405) headers.Allow = refRequired('Allow');
    if (code >= 300 && code < 400 && code !== 304) headers.Location = refRequired('Location');
    // An answer that can be 304 names itself; its 2xx may not (`mine=1`, a rating history).
    if (code === 304) headers.ETag = refRequired('ETag');
    else if (responses['304'] && code >= 200 && code < 300) headers.ETag = ref('ETag');
    if (facts.session) headers['Set-Cookie'] = ref('Set-Cookie');
    if (keyed && code >= 200 && code < 300) headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
    if (facts.limited) {
      headers['X-RateLimit-Limit'] = ref('X-RateLimit-Limit');
      headers['X-RateLimit-Remaining'] = ref('X-RateLimit-Remaining');
      headers['X-RateLimit-Reset'] = ref('X-RateLimit-Reset');
    }
    if (code === 304 || (code >= 300 && code < 400)) delete response.content;
    if (code === 204) delete response.content;
    if (Object.keys(headers).length === 0) delete response.headers;
  }
  delete responses.default;
}

/** The document as served: the rules above applied to what @fastify/swagger generated. */
export function finishDocument(doc: Document): Document {
  const ids = new Set<string>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, shared] of Object.entries(methods)) {
      // One route with several methods (the 405 answers) shares one object: each gets its own.
      const op = structuredClone(shared);
      methods[method] = op;
      const facts = op[ROUTE_FACTS];
      delete op[ROUTE_FACTS];
      if (op.requestBody)
        op.requestBody = mapSchemas(op.requestBody, documentInput) as Operation['requestBody'];
      if (op.parameters) op.parameters = mapSchemas(op.parameters, documentInput) as Operation['parameters'];
      for (const parameter of op.parameters ?? []) {
        if (parameter.required && parameter.example === undefined) {
          parameter.example = exampleOf(parameter.schema as Json | undefined);
        }
      }
      if (!facts) continue;
      op.operationId = operationId(method, path);
      if (ids.has(op.operationId)) throw new Error(`operationId ${op.operationId} is not unique`);
      ids.add(op.operationId);
      addShared(method, path, op, facts);
      const open = facts.roles.includes('public');
      op.security = facts.session ? (open ? [{}, { session: [] }] : [{ session: [] }]) : [];
      if (!UNSAFE.has(method)) delete op.requestBody;
    }
  }
  hoist(doc);
  const schemas = (doc.components.schemas ??= {});
  schemas.Error = {
    type: 'object',
    title: 'Error',
    required: ['error', 'code'],
    properties: {
      error: { type: 'string', description: 'The message (SPEC.md, DECISIONS.md)' },
      code: { type: 'string', enum: Object.keys(ERRORS), description: 'A stable lower_snake_case word' },
    },
  };
  const used = new Set(JSON.stringify(doc.paths).match(/#\/components\/headers\/[\w-]+/g) ?? []);
  doc.components.headers = Object.fromEntries(
    Object.entries(HEADERS).filter(([name]) => used.has(`#/components/headers/${name}`)),
  );
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      const body = op.requestBody;
      if (!body?.content) continue;
      const schema = body.content['application/json']?.schema;
      body.required = needsBody(doc, schema);
      const form = body.content['application/x-www-form-urlencoded'];
      // A form's values are text, one per name: a body that needs a list is JSON only.
      if (form && !formCarries(doc, form.schema)) delete body.content['application/x-www-form-urlencoded'];
      const encoding = form && formEncoding(doc, form.schema);
      if (form && encoding && body.content['application/x-www-form-urlencoded']) form.encoding = encoding;
    }
  }
  return doc;
}
