import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { COMPRESS_FROM, isCompressible } from '../cache/answer.ts';

export const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

/** The compressed forms kept beside each compressible file of the built page. */
export const FORMS = { br: '.br', gzip: '.gz' } as const;

export function typeOf(file: string): string {
  return TYPES[extname(file)] ?? 'application/octet-stream';
}

/** The files whose answers get compressed forms (cache/answer.ts decides for every answer). */
export function compressible(file: string, size: number): boolean {
  return isCompressible(typeOf(file)) && size >= COMPRESS_FROM;
}

export const brotliOf = (bytes: Buffer) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
export const gzipOf = (bytes: Buffer) => gzipSync(bytes, { level: 9 });

/** The files of a directory tree, without the compressed forms written beside them. */
export function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return Object.values(FORMS).some((ext) => name.endsWith(ext)) ? [] : [path];
  });
}

/**
 * Build time (web/vite.config.ts): writes `<file>.br` (quality 11) and `<file>.gz` (level 9)
 * beside each compressible file, so that the service reads them at start instead of
 * compressing (docs/decisions.md "Start-up").
 */
export function precompress(root: string): number {
  let count = 0;
  for (const file of walk(root)) {
    const bytes = readFileSync(file);
    if (!compressible(file, bytes.length)) continue;
    writeFileSync(file + FORMS.br, brotliOf(bytes));
    writeFileSync(file + FORMS.gzip, gzipOf(bytes));
    count++;
  }
  return count;
}

/** A compressed form written at build time for this file, when it is at least as new. */
export function prebuilt(file: string, form: keyof typeof FORMS): Buffer | undefined {
  const path = file + FORMS[form];
  if (!existsSync(path) || statSync(path).mtimeMs < statSync(file).mtimeMs) return undefined;
  return readFileSync(path);
}
