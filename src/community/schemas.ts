import { Type } from 'typebox';
import { errors, Field, IdDoc, Input, Lenient, Nullable, Ok, Param } from '../lib/schemas.ts';
import { Scores, ScoresInput } from '../streamers/schemas.ts';

const average = () => Type.Number({ minimum: 0, maximum: 10, description: 'To one decimal, half up' });
const Average = Type.Object(
  { s: average(), g: average(), a: average(), v: average(), n: average(), ns: average(), o: average() },
  { title: 'AverageScores' },
);
export const Summary = Type.Object(
  { count: Type.Integer(), avg: Average, total: Type.Number({ description: 'The sum of the averages' }) },
  { title: 'CommunitySummary' },
);

export const summarySchema = {
  summary: 'Community rating summary of a streamer',
  querystring: Input({ streamer_id: Param(IdDoc()) }, ['streamer_id']),
  response: { 200: Summary, ...errors(400, 404) },
};
export const mineSchema = {
  summary: "The signed-in member's own community rating for a team",
  querystring: Input({ group_id: Param(IdDoc()) }, ['group_id']),
  response: {
    200: Type.Object({ r: Nullable(Scores) }, { title: 'MyCommunityRating' }),
    ...errors(400, 401),
  },
};
export const rateSchema = {
  summary: "Rate your team's streamer (one rating per member, replaced on repeat)",
  body: Input({ group_id: Field('missing_group_id', IdDoc()), r: Lenient(ScoresInput) }, ['group_id']),
  response: { 200: Ok, ...errors(400, 401, 403, 404, 423) },
};
