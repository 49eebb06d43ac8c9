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
