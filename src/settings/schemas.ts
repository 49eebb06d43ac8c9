import { Type } from 'typebox';
import { errors, Lenient, Ok } from '../lib/schemas.ts';

export const getSchema = {
  summary: 'Public settings: `{auth_enabled}`',
  response: { 200: Type.Object({ auth_enabled: Type.Boolean() }) },
};
export const putSchema = {
  summary: 'Change `auth_enabled` (whether commenting requires sign-in)',
  body: Type.Object({ auth_enabled: Lenient() }),
  response: { 200: Ok, ...errors(400, 401) },
};
