import { BADGE_PNG_WIDTH, badgeSvg } from './badge.ts';
import { cardSvg } from './card.ts';
import { fonts } from './fonts.ts';
import type { Provider, Scores } from '../shared/rules.ts';
import { scoreSum } from '../shared/rules.ts';

/** What the drawing process is asked for. */
export interface DrawRequest {
  kind: 'card' | 'badge.svg' | 'badge.png';
  name: string;
  platform: Provider;
  r: Scores;
  siteName: string;
  verified: boolean;
}

type Resvg = typeof import('@resvg/resvg-js');
let resvg: Promise<Resvg> | undefined;

/**
 * SVG to PNG with resvg (its prebuilt binary ships in its npm package). The SVGs hold outlines
 * only, so resvg loads no fonts; it renders on its own thread.
 */
async function svgToPng(svg: string, width?: number): Promise<Buffer> {
  resvg ??= import('@resvg/resvg-js');
  const { renderAsync } = await resvg;
  const image = await renderAsync(svg, {
    font: { loadSystemFonts: false },
    ...(width ? { fitTo: { mode: 'width' as const, value: width } } : {}),
  });
  return image.asPng();
}

/** Draws one image: the card's PNG, or the badge as SVG (text) or PNG (outlines, 320 px wide). */
export async function drawImage(request: DrawRequest): Promise<Buffer> {
  const f = await fonts();
  if (request.kind === 'card') return svgToPng(cardSvg(f, request));
  const badge = { name: request.name, total: scoreSum(request.r), label: request.siteName };
  if (request.kind === 'badge.svg') return Buffer.from(badgeSvg(f, badge, false));
  return svgToPng(badgeSvg(f, badge, true), BADGE_PNG_WIDTH);
}
