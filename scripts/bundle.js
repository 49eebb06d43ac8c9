// `npm run build` step: the service's entry (dist/src/main.js, compiled by tsc) bundled with
// its dependencies into that one file, so that a start reads one module instead of several
// hundred (docs/decisions.md "Start-up"). What only some starts or requests need stays
// outside and loads when first used: native drivers, pg, the password hashes, the rate
// limiter, Fastify's schema compilers (src/lib/lazy-compilers.ts), and the writers of mail,
// push, calendars and feeds (src/lib/lazy-modules.ts). The command-line tool
// (dist/src/cli/main.js) is bundled the same way, below. Run again without `tsc` between, it
// leaves a bundle as it is.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { asciiOnly } from './ascii.js';
import { LAZY_MODULES } from '../dist/src/lib/lazy-modules.js';

const entry = 'dist/src/main.js';
/** What each bundle begins with: CommonJS dependencies inside an ES module still call require(). */
const BANNER =
  "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);";
/** What both bundles share: one file's worth of modules, the drivers and the lazy ones outside. */
const common = {
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // V8 keeps a module's source for the process's life (and, once a stack is written, the
  // offset of each of its lines): without its blanks the bundle is 2.3 MB, not 3.5. Names stay
  // as written, so a stack still names its functions; `node --enable-source-maps` maps its
  // positions back through the map written beside it (docs/operations.md).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  logLevel: 'warning',
  external: [
    'better-sqlite3',
    'better-sqlite3-node20',
    'pg',
    '@node-rs/argon2',
    'bcryptjs',
    '@fastify/rate-limit',
    ...LAZY_MODULES,
  ],
  banner: { js: BANNER },
};

/**
 * Whether `file` is this script's output already: it was run again without `tsc` between, and
 * has nothing new to bundle (a bundle of the bundle would declare the banner's names twice).
 */
function bundledAlready(file) {
  if (!readFileSync(file, 'utf8').startsWith(BANNER)) return false;
  console.log(`${file} is bundled already (tsc has not written it since): left as it is`);
  return true;
}

if (!bundledAlready(entry)) {
  await build({ ...common, entryPoints: [entry], outfile: entry });
  // In ASCII only (scripts/ascii.js): V8 keeps the bundle's source for as long as the process runs.
  writeFileSync(entry, asciiOnly(readFileSync(entry, 'utf8')));
}

// The command-line tool: each run is a new process, and loading its 350-760 modules (Kysely's
// and TypeBox's files one by one) was most of a command's time, 0.3-0.5 s of CPU against
// 0.1-0.15 bundled. Split into chunks: each command's module stays a dynamic import
// (src/cli/command.ts), so `--help` and argument errors still load the entry alone. The chunks
// of earlier builds are removed, and the modules each chunk holds are written beside them
// (test/helpers/cli.ts reads them to say what a run loaded).
const cli = 'dist/src/cli';
const chunks = join(cli, 'chunks');
if (!bundledAlready(join(cli, 'main.js'))) {
  const { metafile } = await build({
    ...common,
    entryPoints: [join(cli, 'main.js')],
    outdir: cli,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    metafile: true,
  });
  const held = {};
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    if (!output.endsWith('.js')) continue;
    held[output] = Object.keys(inputs);
    writeFileSync(output, asciiOnly(readFileSync(output, 'utf8')));
  }
  for (const file of readdirSync(chunks).map((name) => join(chunks, name))) {
    if (!(file.replace(/\.map$/, '') in held)) rmSync(file);
  }
  writeFileSync(join(chunks, 'modules.json'), JSON.stringify(held));
}
