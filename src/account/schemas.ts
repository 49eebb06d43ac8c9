import { Type } from 'typebox';
import { errors, Field, Input, Lenient, Ok } from '../lib/schemas.ts';

export const exportSchema = {
  summary:
    'Your data as a JSON file: your user record and your comments, likes, votes, reports, team ' +
    'memberships, community ratings, notifications, the streamers you follow, your staff reviews and ' +
    're-rating requests, your push subscriptions and your e-mail address and choices (nobody else’s)',
  response: {
    200: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'A JSON file to save',
        headers: {
          'Content-Disposition': Type.String({ description: '`attachment; filename="..."`' }),
        },
      },
    ),
    ...errors(401),
  },
};

export const deleteSchema = {
  summary:
    'Delete your account: `confirm` is your login. Your comments stay as guest comments by Anonym, ' +
    'or go too with `delete_comments: true`',
  body: Input(
    {
      confirm: Field(
        'confirmation_mismatch',
        Type.String({ description: 'Your login (letter case and spaces do not matter)' }),
      ),
      delete_comments: Lenient(Type.Boolean({ description: 'Delete your comments too' })),
    },
    ['confirm'],
  ),
  response: { 200: Ok, ...errors(400, 401) },
};
