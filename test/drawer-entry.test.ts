import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagesHash } from '../scripts/build-freshness.js';
import { drawProcessEntry } from '../src/images/drawer.ts';

/** A project folder with a source, a build of it and the build's stamp, each of a given age. */
const root = mkdtempSync(join(tmpdir(), 'drawer-entry-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const files = {
  source: join(root, 'src/images/draw.ts'),
  built: join(root, 'dist/src/images/draw-process.js'),
  stamp: join(root, 'dist/.build-stamp'),
};
for (const file of [join(root, 'package.json'), join(root, 'tsconfig.json'), ...Object.values(files)]) {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '');
}
/** The stamp `npm run build` ends with: it records the package files' content. */
const stamp = () => writeFileSync(files.stamp, `packages ${packagesHash(root)}\n`);
stamp();
/** Sets each file's modification time, in seconds of 2026. */
const ages = (times: Partial<Record<keyof typeof files, number>>) => {
  for (const [name, t] of Object.entries(times)) utimesSync(files[name as keyof typeof files], t, t);
};
const T = Date.UTC(2026, 0, 1) / 1000;
const fromSource = join(root, 'src/images/drawer.ts');
const BUILT = { file: files.built, execArgv: [], cwd: root };
const TSX = { file: join(root, 'src/images/draw-process.ts'), execArgv: ['--import', 'tsx'], cwd: root };

describe('the drawing process starts from the build while the build is current', () => {
  it('run from the source with a build newer than every source: the built module, no tsx', () => {
    utimesSync(join(root, 'tsconfig.json'), T, T);
    ages({ source: T, built: T + 10, stamp: T + 20 });
    expect(drawProcessEntry(fromSource)).toEqual(BUILT);
  });

  it('a source changed after the build: the source through tsx', () => {
    ages({ source: T + 30, built: T + 10, stamp: T + 20 });
    expect(drawProcessEntry(fromSource)).toEqual(TSX);
  });

  it('the TypeScript settings changed after the build: the source through tsx', () => {
    ages({ source: T, built: T + 10, stamp: T + 20 });
    utimesSync(join(root, 'tsconfig.json'), T + 30, T + 30);
    expect(drawProcessEntry(fromSource)).toEqual(TSX);
    utimesSync(join(root, 'tsconfig.json'), T, T);
  });

  it('the packages changed after the build (by content, as npm start counts them): the source through tsx', () => {
    ages({ source: T, built: T + 10, stamp: T + 20 });
    writeFileSync(join(root, 'package.json'), '{"name":"another"}');
    expect(drawProcessEntry(fromSource)).toEqual(TSX);
    writeFileSync(join(root, 'package.json'), '');
    expect(drawProcessEntry(fromSource)).toEqual(BUILT);
  });

  it('no stamp (a build that did not finish) or no built module: the source through tsx', () => {
    rmSync(files.stamp);
    expect(drawProcessEntry(fromSource)).toEqual(TSX);
    stamp();
    rmSync(files.built);
    ages({ source: T, stamp: T + 20 });
    expect(drawProcessEntry(fromSource)).toEqual(TSX);
    writeFileSync(files.built, '');
  });

  it('the built service: its own module, whatever the sources', () => {
    ages({ source: T + 30, built: T + 10, stamp: T + 20 });
    expect(drawProcessEntry(join(root, 'dist/src/images/drawer.js'))).toEqual(BUILT);
  });
});
