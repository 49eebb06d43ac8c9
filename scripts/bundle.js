// `npm run build` step: the service's entry (dist/src/main.js, compiled by tsc) bundled with
// its dependencies into that one file, so that a start reads one module instead of several
// hundred (docs/decisions.md "Start-up"). What only some starts or requests need stays
// outside and loads when first used: native drivers, pg, the password hashes, the rate
// limiter, Fastify's schema compilers (src/lib/lazy-compilers.ts), and the writers of mail,
// push, calendars and feeds (src/lib/lazy-modules.ts). The command-line tool keeps running the
// unbundled modules.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { asciiOnly } from './ascii.js';
import { LAZY_MODULES } from '../dist/src/lib/lazy-modules.js';

const entry = 'dist/src/main.js';
await build({
  entryPoints: [entry],
  outfile: entry,
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
  // CommonJS dependencies inside an ES module still call require().
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);",
  },
});

// In ASCII only (scripts/ascii.js): V8 keeps the bundle's source for as long as the process runs.
writeFileSync(entry, asciiOnly(readFileSync(entry, 'utf8')));
