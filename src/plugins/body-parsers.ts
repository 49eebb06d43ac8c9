import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

function invalidJson(): Error {
  return Object.assign(new Error('Invalid JSON'), { statusCode: 400, code: 'INVALID_JSON' });
}

/**
 * Bodies are JSON or form-encoded, nothing else (Fastify answers 415 for other types). An
 * empty body counts as an empty object. Form fields `r[s]=5` become `{r: {s: "5"}}`, so the
 * rating editor can post a plain form.
 */
export const bodyParsersPlugin = fp(
  async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();

    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      const text = (body as string).trim();
      if (text === '') return done(null, {});
      try {
        const value: unknown = JSON.parse(text);
        if (value === null || typeof value !== 'object' || Array.isArray(value)) {
          return done(invalidJson(), undefined);
        }
        done(null, value);
      } catch {
        done(invalidJson(), undefined);
      }
    });

    // A request without a body is validated as an empty object.
    app.addHook('preValidation', async (request) => {
      request.body ??= {};
    });

    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, parseForm(body as string)),
    );
  },
  { name: 'body-parsers' },
);

export function parseForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of new URLSearchParams(body)) {
    const nested = /^([^[\]]+)\[([^[\]]+)\]$/.exec(key);
    if (nested) {
      const [, outer, inner] = nested as unknown as [string, string, string];
      const bag = out[outer];
      const obj = bag && typeof bag === 'object' ? (bag as Record<string, unknown>) : Object.create(null);
      obj[inner] = value;
      out[outer] = obj;
    } else {
      out[key] = value;
    }
  }
  return { ...out };
}
