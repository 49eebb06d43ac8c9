import {
  CRITERIA_CS,
  type Provider,
  PROVIDER_NAMES,
  SCORE_KEYS,
  type Scores,
  scoreSum,
} from '../shared/rules.ts';
import { fit, type Fonts } from './fonts.ts';

/**
 * The share card (DECISIONS.md "Reaching out"): 1200×630, the streamer's name, the total and
 * the seven scores, as an SVG of shapes and outlines only (every text is a path: nothing a
 * name holds can become markup), rendered to PNG by render.ts.
 */

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

export interface CardData {
  name: string;
  platform: Provider;
  r: Scores;
  siteName: string;
  /** A user who speaks for the streamer has signed in (DECISIONS.md "Streamers speak for themselves"). */
  verified: boolean;
}

const PAD = 72;
const INNER = CARD_WIDTH - 2 * PAD;
/** The card speaks the site's language, as its criteria do. */
const VERIFIED_CS = 'Ověřený kanál';

/** The page's verified mark on the card: a green tick in a circle and its words, after the platform. */
function verifiedMark(f: Fonts, parts: string[], x: number): void {
  parts.push(
    `<circle cx="${x + 14}" cy="238" r="14" fill="#16a34a"/>`,
    `<path d="M${x + 7} 238l5 5l9-10" fill="none" stroke="#f8fafc" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/>`,
    `<path fill="#4ade80" d="${f.path(VERIFIED_CS, x + 38, 248, 28, 'regular')}"/>`,
  );
}

export function cardSvg(f: Fonts, data: CardData): string {
  const total = scoreSum(data.r);
  const parts: string[] = [];
  const text = (t: string, x: number, y: number, size: number, weight: 'regular' | 'bold', fill: string) =>
    parts.push(`<path fill="${fill}" d="${f.path(t, x, y, size, weight)}"/>`);

  parts.push(
    // A plain background: a gradient made the PNG three times larger.
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="#111827"/>`,
    `<rect width="${CARD_WIDTH}" height="10" fill="#f59e0b"/>`,
  );
  text(fit(f, data.siteName, INNER, 30, 'regular'), PAD, 92, 30, 'regular', '#94a3b8');

  // The name as large as fits, down to 44 px, then cut.
  let size = 76;
  while (size > 44 && f.width(data.name, size, 'bold') > INNER) size -= 4;
  text(fit(f, data.name, INNER, size, 'bold'), PAD, 196, size, 'bold', '#f8fafc');
  text(PROVIDER_NAMES[data.platform], PAD, 248, 28, 'regular', '#94a3b8');
  if (data.verified) verifiedMark(f, parts, PAD + f.width(PROVIDER_NAMES[data.platform], 28, 'regular') + 24);

  const totalText = String(total);
  text(totalText, PAD, 380, 120, 'bold', '#fbbf24');
  const after = PAD + f.width(totalText, 120, 'bold') + 12;
  text('/ 70', after, 380, 52, 'bold', '#cbd5e1');

  // Seven columns: the criterion, its score and a bar of it.
  const gap = 16;
  const column = (INNER - gap * (SCORE_KEYS.length - 1)) / SCORE_KEYS.length;
  SCORE_KEYS.forEach((key, i) => {
    const x = PAD + i * (column + gap);
    const label = fit(f, CRITERIA_CS[key], column, 20, 'regular');
    text(label, x, 470, 20, 'regular', '#cbd5e1');
    text(String(data.r[key]), x, 530, 44, 'bold', '#f8fafc');
    const filled = (column * Math.max(0, Math.min(10, data.r[key]))) / 10;
    parts.push(
      `<rect x="${x}" y="552" width="${column.toFixed(1)}" height="12" rx="6" fill="#334155"/>`,
      filled > 0
        ? `<rect x="${x}" y="552" width="${filled.toFixed(1)}" height="12" rx="6" fill="#f59e0b"/>`
        : '',
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" ` +
    `viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}">${parts.join('')}</svg>`
  );
}
