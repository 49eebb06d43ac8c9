import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

/**
 * The server's rendering of the first view (web/src/ssr.ts, docs/decisions.md "The first
 * view"): one ES module in dist/ssr with Svelte's server runtime bundled in, which the
 * service imports at start (src/pages/first-view.ts).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [svelte()],
  ssr: { noExternal: true },
  publicDir: false,
  build: {
    ssr: 'src/ssr.ts',
    outDir: '../dist/ssr',
    emptyOutDir: true,
    target: 'node20',
    minify: true,
    reportCompressedSize: false,
    rollupOptions: { output: { format: 'es', entryFileNames: 'ssr.js' } },
  },
});
