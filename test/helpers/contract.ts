import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { isPageAddress } from '../../src/pages/first-view.ts';

// A CommonJS module whose types describe its ES default export.
const addFormats = formats.default;

/**
 * Holds an answer against the API document, as a validating proxy would: the operation
 * (method and path template) must declare the status; every header that is not a generic one
 * must be declared for that answer, and the required ones must be there; the content type
 * must be one the answer declares (none when it declares no content, as for a 304), and a
 * JSON body must match its schema. Used on every answer the tests' client receives
 * (helpers/client.ts) and by test/contract.test.ts.
 */

type Json = Record<string, any>;

/** Headers of every answer, or of HTTP itself, described once in the document's info. */
const GENERIC = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'date',
  'connection',
  'keep-alive',
  'vary',
  'cache-control',
  'x-content-type-options',
  'referrer-policy',
  'content-security-policy',
  'strict-transport-security',
  'x-frame-options',
  'cross-origin-opener-policy',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
]);

export interface Exchange {
  method: string;
  /** The path with its query, as requested. */
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

/**
 * An Ajv with a document's components registered as `doc`, and the validators it compiled,
 * by their schema's text. Made once for each distinct `components` text and shared by the
 * documents that have it (every app the suite starts with the same routes): a new Ajv
 * compiles the JSON Schema meta-schema and checks the components against it, and that and
 * compiling the same schemas again were half of the checks' time (docs/benchmarks.md, stop
 * 105). A validator is found by the text of the schema it compiled, so a document whose
 * schemas differ never gets another's.
 */
interface Shared {
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

/** The documents' components seen last, a few: the apps of one file share one or two. */
const shared = new Map<string, Shared>();
const SHARED_KEPT = 4;

function sharedFor(components: Json): Shared {
  const text = JSON.stringify(components);
  const found = shared.get(text);
  shared.delete(text);
  const s = found ?? { ajv: newAjv(components), validators: new Map() };
  shared.set(text, s);
  for (const oldest of shared.keys()) {
    if (shared.size <= SHARED_KEPT) break;
    shared.delete(oldest);
  }
  return s;
}

function newAjv(components: Json): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'doc', components });
  return ajv;
}

interface Compiled {
  shared: Shared;
  /** This document's validators, by operation, status and media type. */
  validators: Map<string, ValidateFunction>;
  matchers: { template: string; regex: RegExp }[];
}

const compiled = new WeakMap<object, Compiled>();

function prepare(doc: Json): Compiled {
  let c = compiled.get(doc);
  if (c) return c;
  const matchers = Object.keys(doc.paths)
    .map((template) => ({
      template,
      regex: new RegExp(`^${template.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`),
    }))
    // Literal paths before templated ones (`/admin` before `/admin/{tab}`).
    .sort((a, b) => a.template.split('{').length - b.template.split('{').length);
  c = { shared: sharedFor(doc.components ?? {}), validators: new Map(), matchers };
  compiled.set(doc, c);
  return c;
}

/** `#/components/...` references made relative to the document schema registered as `doc`. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `doc${v}` : rebase(v);
  }
  return out;
}

const resolveRef = (doc: Json, node: Json | undefined): Json | undefined => {
  const ref = node?.$ref;
  if (typeof ref !== 'string') return node;
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<Json | undefined>((acc, key) => acc?.[key], doc);
};

/** The operation an answer belongs to, or undefined when no route answered (a 404 of the router). */
export function operationOf(
  doc: Json,
  method: string,
  url: string,
): { template: string; op: Json } | undefined {
  const path = url.split('?')[0] ?? url;
  const m = (method === 'HEAD' ? 'get' : method).toLowerCase();
  for (const { template, regex } of prepare(doc).matchers) {
    if (!regex.test(path)) continue;
    const op = doc.paths[template]?.[m];
    if (op) return { template, op };
  }
  return undefined;
}

const mediaMatches = (declared: string, actual: string) => {
  if (declared === '*/*') return true;
  const [type] = actual.split(';');
  const t = (type ?? '').trim().toLowerCase();
  if (declared.endsWith('/*')) return t.startsWith(declared.slice(0, -1));
  return t === declared.toLowerCase();
};

/**
 * Not answers of the API: CORS preflights (the document's info describes CORS) and the
 * development stand-ins for Twitch and Kick, which answer as those services do.
 */
const outside = (x: Exchange) => x.method === 'OPTIONS' || x.url.startsWith('/dev/');

/**
 * A 405, which the document's info describes once rather than as operations (issue 45 item 26):
 * on a path the document lists, with `Allow` naming exactly the methods it documents there, and
 * an error body.
 */
function notAllowedViolations(doc: Json, name: string, x: Exchange): string[] {
  const path = x.url.split('?')[0] ?? x.url;
  const template = prepare(doc).matchers.find(({ regex }) => regex.test(path))?.template;
  if (!template) return [`${name}: 405 on a path the document does not list`];
  const documented = Object.keys(doc.paths[template] ?? {})
    .map((m) => m.toUpperCase())
    .sort();
  const allow = (x.headers.get('allow') ?? '').split(', ').sort();
  const problems =
    JSON.stringify(allow) === JSON.stringify(documented)
      ? []
      : [`${name}: Allow ${allow.join(', ')} is not what the document lists (${documented.join(', ')})`];
  const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  return [...problems, ...bodyViolations(doc, name, error, x, 'not allowed')];
}

/** The contract violations of one answer (empty when it is documented). */
export function violations(doc: Json, x: Exchange): string[] {
  if (outside(x)) return [];
  const name = `${x.method} ${x.url.split('?')[0]} → ${x.status}`;
  const found = operationOf(doc, x.method, x.url);
  if (!found) {
    if (x.status === 405) return notAllowedViolations(doc, name, x);
    // No operation: the router's own 404 (or a pre-routing refusal), always an error body.
    if (x.status !== 404 && x.status !== 400) return [`${name}: no documented operation answered`];
    const error = {
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/Error' } },
        // The site's "not found" page for a page address (the document's info says which).
        ...(x.status === 404 && isPageAddress(x.method, x.url.split('?')[0] ?? '')
          ? { 'text/html': { schema: { type: 'string' } } }
          : {}),
      },
    };
    return bodyViolations(doc, name, error, x, 'no operation');
  }
  const response = resolveRef(doc, found.op.responses?.[String(x.status)]);
  if (!response) return [`${name}: status not documented for ${x.method} ${found.template}`];
  const problems: string[] = [];
  const declared = new Map(
    Object.entries((response.headers ?? {}) as Record<string, Json>).map(([k, v]) => [
      k.toLowerCase(),
      resolveRef(doc, v) ?? {},
    ]),
  );
  const seen = new Set<string>();
  x.headers.forEach((value, key) => {
    const lower = key.toLowerCase();
    seen.add(lower);
    if (GENERIC.has(lower)) return;
    const header = declared.get(lower);
    if (!header) {
      problems.push(`${name}: header ${lower} is not documented`);
      return;
    }
    const schema = header.schema as Json | undefined;
    if (schema?.type === 'integer' && !/^\d+$/.test(value)) {
      problems.push(`${name}: header ${lower}=${value} is not an integer`);
    }
  });
  for (const [key, header] of declared) {
    if (header.required && !seen.has(key)) problems.push(`${name}: required header ${key} is missing`);
  }
  const cacheKey = `${x.method === 'HEAD' ? 'GET' : x.method} ${found.template} ${x.status}`;
  return [...problems, ...bodyViolations(doc, name, response, x, cacheKey)];
}

function bodyViolations(doc: Json, name: string, response: Json, x: Exchange, cacheKey: string): string[] {
  const content = (response.content ?? {}) as Record<string, { schema?: unknown }>;
  const type = x.headers.get('content-type');
  const empty = x.text === '' && (x.method === 'HEAD' || x.headers.get('content-length') === '0' || !type);
  if (Object.keys(content).length === 0) {
    if (type) return [`${name}: declares no content but has Content-Type ${type}`];
    return x.text === '' ? [] : [`${name}: declares no content but has a body`];
  }
  if (x.method === 'HEAD' || (empty && x.text === '')) {
    return type || x.method === 'HEAD' ? [] : [`${name}: a body is documented but none came`];
  }
  if (!type) return [`${name}: a body without Content-Type`];
  const media = Object.keys(content).find((declared) => mediaMatches(declared, type));
  if (!media) return [`${name}: Content-Type ${type} is not documented (${Object.keys(content).join(', ')})`];
  const schema = content[media]?.schema;
  if (!schema || !media.includes('json')) return [];
  let body: unknown;
  try {
    body = JSON.parse(x.text);
  } catch {
    return [`${name}: the body is not JSON`];
  }
  const validate = validatorOf(doc, `${cacheKey} ${media}`, schema);
  if (validate(body)) return [];
  return (validate.errors ?? []).slice(0, 3).map((e) => `${name}: body${e.instancePath} ${e.message}`);
}

function validatorOf(doc: Json, key: string, schema: unknown): ValidateFunction {
  const { shared: s, validators } = prepare(doc);
  const mine = validators.get(key);
  if (mine) return mine;
  const text = JSON.stringify(schema);
  const validate = s.validators.get(text) ?? s.ajv.compile(rebase(schema) as Json);
  s.validators.set(text, validate);
  validators.set(key, validate);
  return validate;
}
