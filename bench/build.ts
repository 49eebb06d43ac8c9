/**
 * What has to exist before a run: the service built into dist/ (`npm run build` when dist is
 * missing or older than its sources) and the benchmark's own child programs as plain
 * JavaScript, so that they start as fast as the service does (no TypeScript loader in them).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export const ROOT = join(import.meta.dirname, '..');
const SERVICE_ENTRY = join(ROOT, 'dist', 'src', 'main.js');
const WEB_ENTRY = join(ROOT, 'dist', 'web', 'index.html');
const SOURCES = [
  'src',
  'web',
  'scripts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, name)));
  }
  return newest;
}

/** Runs `npm run build` when dist/ is missing or older than any source. */
export function ensureBuilt(log: (line: string) => void): void {
  const outputs = [SERVICE_ENTRY, WEB_ENTRY];
  const built = outputs.every(existsSync) ? Math.min(...outputs.map((p) => statSync(p).mtimeMs)) : 0;
  const sources = Math.max(...SOURCES.map((p) => newestMtime(join(ROOT, p))));
  if (built > sources) return;
  log(built === 0 ? 'dist/ is missing: npm run build' : 'dist/ is older than the sources: npm run build');
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal})`);
}

/** Transpiles bench/<name>.ts to dist/bench/<name>.js (inside the project, so that its
 * imports resolve from the project's node_modules) and returns that path. */
export function compileChild(name: string): string {
  const source = readFileSync(join(ROOT, 'bench', `${name}.ts`), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      // '../src/db/sqlite-driver.ts' -> '.js': the service's build beside dist/bench.
      rewriteRelativeImportExtensions: true,
    },
    fileName: `${name}.ts`,
  });
  const dir = join(ROOT, 'dist', 'bench');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${name}.js`);
  writeFileSync(out, outputText);
  return out;
}
