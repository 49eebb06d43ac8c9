import { Type } from 'typebox';
import { errors, FlagDoc, IdDoc, Input, Lenient, Ok, Param } from '../lib/schemas.ts';
import { LIMITS } from '../shared/rules.ts';

export const voteSchema = {
  summary:
    'Score a streamer of the Public view as a visitor (`score` 1-10; 0 removes the vote); one vote per ' +
    'user. The audience score never changes the ranking',
  querystring: Input({ streamer_id: Param(IdDoc()) }, ['streamer_id']),
  body: Input(
    {
      score: Lenient(
        Type.Integer({ minimum: 0, maximum: LIMITS.score, description: '1 to 10; 0 removes your vote' }),
      ),
    },
    ['score'],
  ),
  response: { 200: Ok, ...errors(400, 401, 403, 404) },
};

export const myVotesSchema = {
  summary: 'The signed-in user\'s votes: `{votes: {"<streamer id>": score}}`',
  querystring: Input({ mine: Param(FlagDoc('Your votes')) }, ['mine']),
  response: {
    200: Type.Object(
      { votes: Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.Integer()) },
      { title: 'MyVotes' },
    ),
    ...errors(401),
  },
};
