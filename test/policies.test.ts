import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 40, "Policies the server calls": each permission the page asks (src/<feature>/policy.ts,
 * which web/ imports) is a function the service calls too, so that the page and the service
 * cannot disagree. Read from the sources as text, as test/layers.test.ts reads the page's.
 */

const POLICY = /^src\/[a-z-]+\/policy\.ts$/;

/** The text without its comments: a name in a comment calls nothing. */
const code = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^((?:[^'"`\n]|'[^'\n]*')*?)\/\/.*$/gm, '$1');

const word = (name: string) => new RegExp(`(?<![\\w$.])${name.replace('$', '\\$')}(?![\\w$])`);

/** The policies a file imports (not as types): [policy file, exported name, local name]. */
function importsOf(file: string, text: string): [string, string, string][] {
  const found: [string, string, string][] = [];
  for (const m of text.matchAll(/^import\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)';?$/gm)) {
    const [, typeOnly, names = '', from = ''] = m;
    const target = normalize(join(dirname(file), from));
    if (typeOnly || !POLICY.test(target)) continue;
    for (const part of names.split(',').map((p) => p.trim())) {
      if (part === '' || part.startsWith('type ')) continue;
      const [name = '', local = name] = part.split(/\s+as\s+/);
      found.push([target, name, local]);
    }
  }
  return found;
}

/** A policy file's top-level declarations: name and body (what it calls). */
function declarationsOf(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let name: string | null = null;
  for (const line of code(text).split('\n')) {
    const start = /^(?:export\s+)?(?:const|function|let)\s+([\w$]+)/.exec(line);
    if (start?.[1]) name = start[1];
    else if (/^\S/.test(line) && !/^[}\])]/.test(line)) name = null;
    if (name !== null) out.set(name, `${out.get(name) ?? ''}${start ? line.slice(start[0].length) : line}\n`);
  }
  return out;
}

/**
 * The exported functions of the policy files that nothing of the service calls: neither a file
 * of src/ outside the policy files (web/ and the tests are not read), nor a policy the service
 * calls in turn (`viewOf` calls `mayListAll`).
 */
export function uncalledPolicies(files: Map<string, string>, exported: Map<string, string[]>): string[] {
  const called = new Set<string>();
  const edges: [from: string, to: string][] = [];
  for (const [file, text] of files) {
    const imports = importsOf(file, text);
    if (POLICY.test(file)) {
      const own = declarationsOf(text);
      const inScope: [string, string][] = [
        ...[...own.keys()].map((n): [string, string] => [`${file}#${n}`, n]),
        ...imports.map(([target, name, local]): [string, string] => [`${target}#${name}`, local]),
      ];
      for (const [caller, body] of own) {
        for (const [id, local] of inScope) if (word(local).test(body)) edges.push([`${file}#${caller}`, id]);
      }
    } else {
      const body = code(text).replace(/^import\s[^;]*;$/gm, '');
      for (const [target, name, local] of imports)
        if (word(local).test(body)) called.add(`${target}#${name}`);
    }
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const [from, to] of edges) {
      if (called.has(from) && !called.has(to)) {
        called.add(to);
        grew = true;
      }
    }
  }
  return [...exported].flatMap(([file, names]) =>
    names.filter((n) => !called.has(`${file}#${n}`)).map((n) => `${file}: ${n}`),
  );
}

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

describe('the policies the page asks', () => {
  it('are each called by the service: a route, its guard or its operation (issue 40)', async () => {
    const files = new Map(sources('src').map((f) => [f, readFileSync(f, 'utf8')]));
    const exported = new Map<string, string[]>();
    for (const file of [...files.keys()].filter((f) => POLICY.test(f))) {
      const module = (await import(`../src/${file.split('/')[1]}/policy.ts`)) as Record<string, unknown>;
      exported.set(
        file,
        Object.keys(module).filter((k) => typeof module[k] === 'function'),
      );
    }
    const count = [...exported.values()].flat().length;
    expect(count, 'the policies found').toBeGreaterThan(25);
    expect(uncalledPolicies(files, exported)).toEqual([]);
  });

  it('a policy only the page calls, or only a comment or an unused policy names, is reported', () => {
    const files = new Map([
      [
        'src/a/policy.ts',
        [
          "import { isStaff } from '../shared/roles.ts';",
          '/** mayHidden is not called here. */',
          'export const mayRead = (who) => isStaff(who);',
          'export function mayWrite(who) {',
          '  return mayRead(who) && who.user !== null;',
          '}',
          'export const mayHidden = (who) => true;',
          'export const mayUnused = (who) => mayChained(who);',
          'export const mayChained = (who) => true;',
          'export const mayDelete = (who) => true;',
        ].join('\n'),
      ],
      ['src/b/policy.ts', 'export const mayDelete = (who) => false;\n'],
      [
        'src/a/routes.ts',
        [
          "import { mayWrite } from './policy.ts';",
          "import { mayDelete } from '../b/policy.ts';",
          "import type { mayHidden } from './policy.ts';",
          '// mayHidden(viewer) would be wrong here',
          'if (!mayWrite(viewer) || !mayDelete(viewer)) throw fail();',
        ].join('\n'),
      ],
    ]);
    const exported = new Map([
      ['src/a/policy.ts', ['mayRead', 'mayWrite', 'mayHidden', 'mayUnused', 'mayChained', 'mayDelete']],
      ['src/b/policy.ts', ['mayDelete']],
    ]);
    expect(uncalledPolicies(files, exported)).toEqual([
      'src/a/policy.ts: mayHidden',
      'src/a/policy.ts: mayUnused',
      'src/a/policy.ts: mayChained',
      'src/a/policy.ts: mayDelete',
    ]);
  });
});
