import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import sjson from 'secure-json-parse';
import { fail } from '../errors.ts';

/**
 * Every piece of client text enters through here: the query string, JSON and form bodies.
 * Text is made storable on both databases alike: NUL characters (which PostgreSQL cannot
 * store) are removed and unpaired surrogates (which are not valid Unicode) become U+FFFD.
 * Object keys that could reach a prototype (`__proto__`, `constructor.prototype`) are
 * refused in JSON and dropped from forms.
 */

export function cleanText(s: string): string {
  return (s.includes('\u0000') ? s.replaceAll('\u0000', '') : s).toWellFormed();
}

/**
 * How deeply a JSON body may nest objects and arrays. No body the service reads goes deeper
 * than 3 (`{"r": {"s": 5}}`); a deeper one is refused as Invalid JSON before it is parsed, so
 * that nothing that walks a body (cleanValue here, validation, logging) can recurse without
 * bound: a body nested 5,000 deep overflowed the stack.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Does the JSON text nest objects and arrays deeper than `max`? One pass over the text, no
 * recursion; brackets inside strings do not count. The text need not be valid JSON (the
 * parser judges that afterwards).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Bounded by MAX_JSON_DEPTH: the parser refuses deeper bodies before this runs. */
function cleanValue(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[cleanText(k)] = cleanValue(v);
    return out;
  }
  return value;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The query string: one string per name (the first of repeated ones wins), so a guard and
 * its handler can never see different values (`?action=debug&action=me`). Used as Fastify's
 * `querystringParser`. Invalid percent-escapes decode to U+FFFD instead of failing.
 */
export function parseQuery(query: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    const k = cleanText(key);
    if (!FORBIDDEN_KEYS.has(k) && !Object.hasOwn(out, k)) out[k] = cleanText(value);
  }
  return out;
}

export type ParsedQuery = Readonly<Record<string, string | undefined>>;

const isParsedQuery = (value: unknown): value is ParsedQuery => value !== null && typeof value === 'object';

/**
 * A request's query as parseQuery made it, for code that runs before the route's typed
 * handler (guards, rate-limit exemptions): the same values the handler will see.
 */
export function parsedQuery(request: FastifyRequest): ParsedQuery {
  return isParsedQuery(request.query) ? request.query : {};
}

/** Form bodies; `r[s]=5` becomes `{r: {s: "5"}}`, so the rating editor can post a plain form. */
export function parseForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const [, outer = key, inner] = /^([^[\]]+)\[([^[\]]+)\]$/.exec(key) ?? [];
    if (FORBIDDEN_KEYS.has(outer) || (inner !== undefined && FORBIDDEN_KEYS.has(inner))) continue;
    if (inner === undefined) {
      out[cleanText(outer)] = cleanText(value);
      continue;
    }
    const bag = out[outer];
    const obj = bag && typeof bag === 'object' ? (bag as Record<string, unknown>) : {};
    obj[cleanText(inner)] = cleanText(value);
    out[cleanText(outer)] = obj;
  }
  return out;
}

const invalidJson = () => fail('invalid_json');

/** Bodies are JSON or form-encoded, nothing else (Fastify answers 415 for other types). */
export const parsersPlugin = fp(
  async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();

    // No route here: the body is not read, and the answer is 404 whatever it holds (SPEC.md).
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      if (req.is404) return done(null, {});
      const text = (body as string).trim();
      if (text === '') return done(null, {});
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(invalidJson(), undefined);
      let value: unknown;
      try {
        value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch {
        return done(invalidJson(), undefined);
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return done(invalidJson(), undefined);
      }
      done(null, cleanValue(value));
    });

    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, parseForm(body as string)),
    );

    // A request without a body is validated as an empty object.
    app.addHook('preValidation', (request, _reply, done) => {
      request.body ??= {};
      done();
    });
  },
  { name: 'parsers' },
);
