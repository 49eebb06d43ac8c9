import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

  it('are where the writes are: a route file begins no transaction and writes no row (stop 96)', () => {
    const writes = /\bwrite(Transaction|Batched)\b|\.(insertInto|updateTable|deleteFrom)\(/;
    const routes = sources('src')
      .map((file) => file.split('\\').join('/'))
      .filter((file) => /\/routes\.ts$/.test(file));
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((file) => writes.test(readFileSync(file, 'utf8')))).toEqual([]);
  });
});

/**
 * No module imports itself through others: a newcomer reads the code from the modules that
 * import nothing of ours up to the app, and a circle has no such order. Every import is
 * counted, a type's and a dynamic one too (`import('./x.ts')`, as the command-line table loads
 * its commands), in the service, the page and the bench.
 */
const MODULE = /\.(ts|svelte)$/;
const modules = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'node_modules' || e.name === 'generated'
        ? []
        : modules(join(dir, e.name))
      : MODULE.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );

/** The modules of this tree a module's text imports: static, re-exported, side-effect and dynamic. */
export function importsOf(file: string, text: string): string[] {
  const named = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms),
    ...text.matchAll(/^\s*import\s+'(\.[^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
  ].map((m) => m[1] ?? '');
  return named.map((from) => join(dirname(file), from));
}

/** The circles of a graph (Tarjan's strongly connected components of more than one module). */
export function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w);
      circle.push(w);
    }
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

describe('the modules', () => {
  it('are told their imports and their circles', () => {
    const text =
      "import a from './a.ts';\nimport {\n  type B,\n  c,\n} from '../b.ts';\nexport { d } from './d.ts';\nimport './e.ts';\nconst f = () => import('./f.ts');\nimport x from 'fastify';";
    expect(importsOf('src/x/m.ts', text)).toEqual([
      'src/x/a.ts',
      'src/b.ts',
      'src/x/d.ts',
      'src/x/e.ts',
      'src/x/f.ts',
    ]);
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(circlesOf(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      circlesOf(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('of the service, the page and the bench import no circle (types and dynamic imports counted)', () => {
    const files = ['src', 'web/src', 'bench', 'scripts'].flatMap(modules).map((f) => f.split('\\').join('/'));
    const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));
    expect(circlesOf(graph)).toEqual([]);
  });

  it("of the service's folders import no circle either: a folder reads from those below it only", () => {
    // A file directly in src/ (app.ts, errors.ts) is a place of its own.
    const folderOf = (file: string) => file.split('/').slice(0, 2).join('/');
    const folders = new Map<string, Set<string>>();
    for (const file of modules('src').map((f) => f.split('\\').join('/'))) {
      const from = folderOf(file);
      const to = importsOf(file, readFileSync(file, 'utf8')).map((f) => folderOf(f.split('\\').join('/')));
      folders.set(from, new Set([...(folders.get(from) ?? []), ...to.filter((f) => f !== from)]));
    }
    expect(circlesOf(new Map([...folders].map(([f, to]) => [f, [...to]])))).toEqual([]);
  });
});

/**
 * A fact lives in one place: the providers' names as people know them are written in
 * src/shared/rules.ts (`PROVIDER_NAMES`), and the page, the messages, the card and the log take
 * them from there. The locales' sentences and the migrations (history) may name them.
 */
describe("the providers' names", () => {
  it('are written once, in src/shared/rules.ts', () => {
    const all = [...sources('src'), ...sources('web/src'), ...files('web/src')].map((f) =>
      f.split('\\').join('/'),
    );
    const written = all
      .filter((file) => !/^(src\/db\/migrations|web\/src\/locales)\//.test(file))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/(['"`>])(Twitch|Kick)(['"`<])/g)].map(
          (m) => `${file}: ${m[0]}`,
        ),
      );
    expect(written.sort()).toEqual(["src/shared/rules.ts: 'Kick'", "src/shared/rules.ts: 'Twitch'"]);
  });
});
