import { Type } from 'typebox';
import { errors, Lenient, Ok, Param } from '../lib/schemas.ts';

export const voteSchema = {
  summary:
    'Score a streamer of the Public view as a visitor (`score` 1-10; 0 removes the vote); one vote per ' +
    'user. The audience score never changes the ranking',
  querystring: Type.Object({ streamer_id: Param() }),
  body: Type.Object({ score: Lenient() }),
  response: { 200: Ok, ...errors(400, 401, 403, 404) },
};

export const myVotesSchema = {
  summary: 'The signed-in user\'s votes: `{votes: {"<streamer id>": score}}`',
  querystring: Type.Object({ mine: Param() }),
  response: {
    200: Type.Object({ votes: Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Integer()) }),
    ...errors(401),
  },
};
