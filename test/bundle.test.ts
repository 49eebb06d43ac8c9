/**
 * scripts/bundle.js, the build's step after `tsc`, on a small tree of its own: run a second time
 * without `tsc` between, it bundled its own bundles, and their banner's `__bundleRequire` was
 * declared twice (a syntax error at the next start).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/service.ts';

const tree = mkdtempSync(join(tmpdir(), 'bundle-test-'));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

function put(file: string, text: string): void {
  mkdirSync(dirname(join(tree, file)), { recursive: true });
  writeFileSync(join(tree, file), text);
}

describe('scripts/bundle.js', () => {
  it('run twice without tsc between, it leaves its bundles as they are: both still run', () => {
    cpSync(join(ROOT, 'scripts'), join(tree, 'scripts'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
    put('package.json', '{ "type": "module" }\n');
    put('dist/src/lib/lazy-modules.js', 'export const LAZY_MODULES = [];\n');
    put('dist/src/hello.js', 'export const hello = (who) => `hello ${who}`;\n');
    // A CommonJS require() in an ES module: what the banner is for.
    put(
      'dist/src/main.js',
      "import { hello } from './hello.js';\nconsole.log(hello(require('node:path').sep));\n",
    );
    put(
      'dist/src/cli/main.js',
      "const { hello } = await import('../hello.js');\nconsole.log(hello('cli'));\n",
    );
    for (const run of [1, 2]) {
      const r = spawnSync(process.execPath, ['scripts/bundle.js'], { cwd: tree, encoding: 'utf8' });
      expect(r.status, `run ${run}: ${r.stderr}`).toBe(0);
    }
    const banner = "import { createRequire as __bundleRequire } from 'node:module';";
    for (const file of ['dist/src/main.js', 'dist/src/cli/main.js']) {
      expect(readFileSync(join(tree, file), 'utf8').split(banner).length - 1, file).toBe(1);
    }
    const node = (file: string) => execFileSync(process.execPath, [file], { cwd: tree, encoding: 'utf8' });
    expect(node('dist/src/main.js')).toBe('hello /\n');
    expect(node('dist/src/cli/main.js')).toBe('hello cli\n');
  });
});
