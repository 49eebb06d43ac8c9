import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The page's components (.svelte, which the lint does not parse) hold to the page's zone of
 * eslint.config.js: from the service, only the pure rules (src/shared/) and the features'
 * policies, anything else only as a type.
 */
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.svelte') ? [join(dir, e.name)] : [],
  );
const ALLOWED = /^(\.\.\/)+src\/(shared\/|[a-z-]+\/policy\.ts$)/;

describe("the page's components", () => {
  it('import from the service only src/shared/ and the policies (types excepted)', () => {
    const wrong: string[] = [];
    for (const file of files('web/src')) {
      for (const m of readFileSync(file, 'utf8').matchAll(
        /^\s*import\s+(type\s+)?[^'"]*from\s+'([^']+)'/gm,
      )) {
        const [, typeOnly, from = ''] = m;
        if (/^(\.\.\/)+src\//.test(from) && !typeOnly && !ALLOWED.test(from)) wrong.push(`${file}: ${from}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('are at most 300 lines each, as the lint holds the TypeScript (issue 25)', () => {
    const long = files('web/src')
      .map((file) => `${file}: ${readFileSync(file, 'utf8').split('\n').length - 1}`)
      .filter((line) => Number(line.split(': ')[1]) > 300);
    expect(long).toEqual([]);
  });
});

/**
 * Operations take the app's context (src/context.ts), not the Fastify instance (issue 40):
 * outside what is Fastify-bound by nature (the route files, the plugins, the app and the
 * server, the API document, the 405 helper, the sender, the built files' routes and the
 * development stand-ins' routes) no module imports a value from 'fastify' or takes a
 * FastifyInstance. Types (a request, a reply, a logger) may still be named.
 */
const FASTIFY_BOUND = [
  /\/routes\.ts$/,
  /\/plugin\.ts$/,
  /^src\/plugins\//,
  /^src\/(app|server)\.ts$/,
  /^src\/openapi\//,
  /^src\/lib\/method-not-allowed\.ts$/,
  /^src\/cache\/sender\.ts$/,
  /^src\/pages\/assets\.ts$/,
  /^src\/sync\/dev-live\.ts$/,
];
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/** What in a module's text binds it to Fastify: a value imported from 'fastify', a FastifyInstance taken. */
function fastifyBindings(text: string): string[] {
  const found: string[] = [];
  for (const [line = '', names = ''] of text.matchAll(/^import\s+(?!type\s)([^;]*?)\s+from\s+'fastify';/gm)) {
    const specifiers = names.startsWith('{') ? names.slice(1, -1).split(',') : [names];
    if (specifiers.some((s) => s.trim() !== '' && !s.trim().startsWith('type '))) found.push(line);
  }
  for (const [taken = ''] of text.matchAll(/\w+\s*:\s*(?:Pick<\s*)?FastifyInstance\b/g)) found.push(taken);
  return found;
}

describe('operations', () => {
  it('are told a value import and a FastifyInstance parameter from type imports', () => {
    expect(fastifyBindings("import Fastify, { type FastifyInstance } from 'fastify';")).toHaveLength(1);
    expect(fastifyBindings("import { type FastifyReply, LogController } from 'fastify';")).toHaveLength(1);
    expect(fastifyBindings("import type { FastifyInstance } from 'fastify';")).toEqual([]);
    expect(fastifyBindings("import { type FastifyBaseLogger } from 'fastify';")).toEqual([]);
    expect(fastifyBindings('export function f(app: FastifyInstance) {}')).toEqual(['app: FastifyInstance']);
    expect(fastifyBindings("type Ops = 1; function g(app: Pick<FastifyInstance, 'db'>) {}")).toHaveLength(1);
  });

  it('take the app context, not Fastify: no value from fastify, no FastifyInstance parameter (issue 40)', () => {
    const bound = sources('src')
      .map((file) => file.split('\\').join('/'))
      .filter((file) => !FASTIFY_BOUND.some((pattern) => pattern.test(file)))
      .flatMap((file) => fastifyBindings(readFileSync(file, 'utf8')).map((what) => `${file}: ${what}`));
    expect(bound).toEqual([]);
  });
});
