import { Type } from 'typebox';

export const Challenge = Type.Object(
  {
    algorithm: Type.String({ description: 'SHA-256' }),
    challenge: Type.String({ description: 'Hex SHA-256 of `salt` followed by the decimal number' }),
    salt: Type.String(),
    maxnumber: Type.Integer({ description: 'The number is from 0 to this' }),
    signature: Type.String(),
  },
  { title: 'Challenge' },
);

export const challengeSchema = {
  summary:
    'A challenge (ALTCHA proof of work, valid 10 minutes) for a guest to solve and send as `altcha` ' +
    'with a comment or a suggestion',
  response: { 200: Challenge },
};
