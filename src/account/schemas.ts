import { Type } from 'typebox';
import { errors, Field, Lenient, Ok } from '../lib/schemas.ts';

export const exportSchema = {
  summary:
    'Your data as a JSON file: your user record and your comments, likes, votes, reports, team ' +
    'memberships and community ratings (nobody else’s)',
  response: { 200: Type.Object({}, { additionalProperties: true }), ...errors(401) },
};

export const deleteSchema = {
  summary:
    'Delete your account: `confirm` is your login. Your comments stay as guest comments by Anonym, ' +
    'or go too with `delete_comments: true`',
  body: Type.Object({ confirm: Field('confirmation_mismatch'), delete_comments: Lenient() }),
  response: { 200: Ok, ...errors(400, 401) },
};
