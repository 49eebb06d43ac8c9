import { Type } from 'typebox';
import { errors, NotModified } from '../lib/schemas.ts';

/** An image answer of these types (the API document's 200). */
const image = (description: string, types: string[]) => ({
  description,
  content: Object.fromEntries(
    types.map((type) => [type, { schema: Type.String({ contentEncoding: 'binary', description }) }]),
  ),
});

const IdParam = Type.Object({ id: Type.String({ maxLength: 200 }) });

export const cardSchema = {
  summary: "A streamer's share card: a 1200×630 PNG (Open Graph and Twitter image)",
  description:
    'The name, the total and the seven scores. Public view only (else 404). `Cache-Control: public, ' +
    'max-age=300` and an ETag that changes with the rating or the name; If-None-Match gets 304.',
  params: IdParam,
  response: { 200: image('The card', ['image/png']), 304: NotModified, ...errors(404) },
};

export const badgeSchema = {
  summary: "A streamer's badge: `<id>.svg` (shields.io style, 20 px high) or `<id>.png` (320 px wide)",
  description:
    "The site's label and the total (`52/70`), the streamer's name in the SVG's `<title>`. Public view " +
    'only (else 404). `Cache-Control: public, max-age=300`, an ETag, 304 to If-None-Match.',
  params: Type.Object({ file: Type.String({ maxLength: 200 }) }),
  response: { 200: image('The badge', ['image/svg+xml', 'image/png']), 304: NotModified, ...errors(404) },
};
