import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from '../src/pages/precompress.ts';

const OUT = '../dist/web';
const BUDGET_KB = 80;

/**
 * Prints what the first view costs compressed, against the 80 KB budget: the entry's script and
 * what it imports statically, with their styles. What a page loads only when it is opened (the
 * administration, `import()`ed) is listed apart and not counted.
 */
function sizeReport(): Plugin {
  let first = new Set<string>();
  return {
    name: 'size-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      first = new Set();
      const visit = (name: string) => {
        const chunk = bundle[name];
        if (!chunk || chunk.type !== 'chunk' || first.has(name)) return;
        first.add(name);
        for (const css of chunk.viteMetadata?.importedCss ?? []) first.add(css);
        chunk.imports.forEach(visit);
      };
      for (const [name, item] of Object.entries(bundle))
        if (item.type === 'chunk' && item.isEntry) visit(name);
    },
    closeBundle() {
      const dir = join(import.meta.dirname, OUT, 'assets');
      const files = readdirSync(dir).filter((f) => /\.(js|css)$/.test(f));
      let total = 0;
      for (const f of files) {
        const raw = readFileSync(join(dir, f));
        const gz = gzipSync(raw, { level: 9 }).length;
        const counted = first.has(`assets/${f}`);
        if (counted) total += gz;
        console.log(
          `  ${f.padEnd(40)} ${(statSync(join(dir, f)).size / 1024).toFixed(1).padStart(7)} KB  gzip ${(gz / 1024).toFixed(1).padStart(6)} KB${counted ? '' : '  (loaded when opened)'}`,
        );
      }
      const kb = total / 1024;
      console.log(`  first view JS + CSS, compressed: ${kb.toFixed(1)} KB (budget ${BUDGET_KB} KB)`);
      if (kb > BUDGET_KB) throw new Error(`web bundle over budget: ${kb.toFixed(1)} KB > ${BUDGET_KB} KB`);
    },
  };
}

/** Writes the brotli and gzip forms beside the built files, so the service need not compress at start. */
function precompressed(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    closeBundle() {
      console.log(`  ${precompress(join(import.meta.dirname, OUT))} files precompressed (brotli 11, gzip 9)`);
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [svelte(), sizeReport(), precompressed()],
  build: {
    outDir: OUT,
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/dev': 'http://localhost:3000' },
  },
});
