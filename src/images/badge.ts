import { escapeXml } from '../lib/html.ts';
import { fit, type Fonts } from './fonts.ts';

/**
 * The badge (DECISIONS.md "Reaching out"), in the style of shields.io: 20 px high, the site's
 * label on grey and the total on a colour that follows it. The SVG for web pages carries real
 * text (escaped) sized to DejaVu Sans's widths with `textLength`, so any font fills the same
 * box; the PNG for Twitch and Kick panels is the same badge with outlines instead of text.
 */

export const BADGE_HEIGHT = 20;
export const BADGE_PNG_WIDTH = 320;
const SIZE = 11;
const PAD = 6;

export interface BadgeData {
  name: string;
  total: number;
  label: string;
}

/** Greener as the total rises (shields.io's colours). */
export function badgeColor(total: number): string {
  if (total >= 56) return '#4c1';
  if (total >= 42) return '#97ca00';
  if (total >= 28) return '#dfb317';
  if (total >= 14) return '#fe7d37';
  return '#e05d44';
}

export function badgeSvg(f: Fonts, data: BadgeData, outlines: boolean): string {
  const label = fit(f, data.label, 240, SIZE, 'regular');
  const value = `${data.total}/70`;
  const lw = Math.ceil(f.width(label, SIZE, 'regular')) + 2 * PAD;
  const vw = Math.ceil(f.width(value, SIZE, 'bold')) + 2 * PAD;
  const w = lw + vw;
  const title = escapeXml(`${data.name}: ${value} (${data.label})`);

  const text = (t: string, x: number, weight: 'regular' | 'bold') => {
    const width = f.width(t, SIZE, weight);
    if (outlines) {
      const left = x - width / 2;
      return (
        `<path fill="#010101" fill-opacity=".3" d="${f.path(t, left, 15, SIZE, weight)}"/>` +
        `<path fill="#fff" d="${f.path(t, left, 14, SIZE, weight)}"/>`
      );
    }
    const attrs = `x="${x}" textLength="${width.toFixed(1)}" lengthAdjust="spacingAndGlyphs"${weight === 'bold' ? ' font-weight="bold"' : ''}`;
    return (
      `<text ${attrs} y="15" fill="#010101" fill-opacity=".3">${escapeXml(t)}</text>` +
      `<text ${attrs} y="14">${escapeXml(t)}</text>`
    );
  };

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${BADGE_HEIGHT}" viewBox="0 0 ${w} ${BADGE_HEIGHT}" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${w}" height="${BADGE_HEIGHT}" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${lw}" height="${BADGE_HEIGHT}" fill="#555"/>` +
    `<rect x="${lw}" width="${vw}" height="${BADGE_HEIGHT}" fill="${badgeColor(data.total)}"/>` +
    `<rect width="${w}" height="${BADGE_HEIGHT}" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="DejaVu Sans,Verdana,Geneva,sans-serif" font-size="${SIZE}">` +
    text(label, lw / 2, 'regular') +
    text(value, lw + vw / 2, 'bold') +
    `</g></svg>`
  );
}
