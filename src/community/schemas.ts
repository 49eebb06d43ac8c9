import { Type } from 'typebox';
import { errors, Field, Lenient, Nullable, Ok, Param } from '../lib/schemas.ts';
import { Scores } from '../streamers/schemas.ts';

const Average = Type.Object({
  s: Type.Number(),
  g: Type.Number(),
  a: Type.Number(),
  v: Type.Number(),
  n: Type.Number(),
  ns: Type.Number(),
  o: Type.Number(),
});
export const Summary = Type.Object({ count: Type.Integer(), avg: Average, total: Type.Number() });

export const summarySchema = {
  summary: 'Community rating summary of a streamer',
  querystring: Type.Object({ streamer_id: Param() }),
  response: { 200: Summary, ...errors(400, 404) },
};
export const mineSchema = {
  summary: "The signed-in member's own community rating for a team",
  querystring: Type.Object({ group_id: Param() }),
  response: { 200: Type.Object({ r: Nullable(Scores) }), ...errors(400, 401) },
};
export const rateSchema = {
  summary: "Rate your team's streamer (one rating per member, replaced on repeat)",
  body: Type.Object({ group_id: Field('missing_group_id'), r: Lenient() }),
  response: { 200: Ok, ...errors(400, 401, 403, 404, 423) },
};
