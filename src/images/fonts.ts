import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Font } from 'fontkit';

/**
 * The font every image is drawn with: DejaVu Sans (regular and bold) from the
 * `dejavu-fonts-ttf` package, whose LICENSE (Bitstream Vera and Arev terms: free use and
 * redistribution) ships beside the files. It has every Czech letter. Text becomes outlines
 * (paths) here, so the images need no fonts where they are rendered or shown, and no text of a
 * name ever reaches an image as markup.
 */

export type Weight = 'regular' | 'bold';

const FILES: Record<Weight, string> = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' };

export interface Fonts {
  /** Outline of `text` as SVG path data, its baseline starting at (x, y). */
  path(text: string, x: number, y: number, size: number, weight: Weight): string;
  width(text: string, size: number, weight: Weight): number;
}

let loading: Promise<Fonts> | undefined;

/** Loads fontkit and the two fonts once, at the first image (the service starts without them). */
export function fonts(): Promise<Fonts> {
  loading ??= load();
  return loading;
}

async function load(): Promise<Fonts> {
  const fontkit = await import('fontkit');
  const dir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const open = (file: string) => fontkit.openSync(join(dir, file)) as Font;
  const faces: Record<Weight, Font> = { regular: open(FILES.regular), bold: open(FILES.bold) };
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    path(text, x, y, size, weight) {
      const face = faces[weight];
      const run = face.layout(text);
      const scale = size / face.unitsPerEm;
      let pen = x;
      let d = '';
      run.glyphs.forEach((glyph, i) => {
        const pos = run.positions[i];
        if (!pos) return;
        const outline = glyph.path
          .scale(scale, -scale)
          .translate(pen + pos.xOffset * scale, y - pos.yOffset * scale)
          .toSVG();
        d += outline.replace(/-?\d+\.\d+/g, (n) => String(round(Number(n))));
        pen += pos.xAdvance * scale;
      });
      return d;
    },
    width(text, size, weight) {
      const face = faces[weight];
      return (face.layout(text).advanceWidth * size) / face.unitsPerEm;
    },
  };
}

/** `text` cut (with an ellipsis) to fit `max` pixels at `size`. */
export function fit(f: Fonts, text: string, max: number, size: number, weight: Weight): string {
  if (f.width(text, size, weight) <= max) return text;
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (f.width(chars.slice(0, mid).join('').trimEnd() + '…', size, weight) <= max) lo = mid;
    else hi = mid - 1;
  }
  return chars.slice(0, lo).join('').trimEnd() + '…';
}
