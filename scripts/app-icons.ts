/**
 * The installable page's icons (web/public/icon-192.png, icon-512.png), drawn from the favicon's
 * shape with the service's own SVG renderer (resvg). Run again when the favicon changes:
 * `npx tsx scripts/app-icons.ts`. The icon fills its square (a `maskable` safe zone: the star
 * sits in the middle 60 %).
 */
import { writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#6d4aff"/><g transform="translate(16 16) scale(0.72) translate(-16 -15)"><path d="M16 5l3.2 6.6 7.3 1-5.3 5.1 1.3 7.2L16 21.5l-6.5 3.4 1.3-7.2-5.3-5.1 7.3-1z" fill="#fff"/></g></svg>`;

for (const size of [192, 512]) {
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng();
  writeFileSync(new URL(`../web/public/icon-${size}.png`, import.meta.url), png);
}
