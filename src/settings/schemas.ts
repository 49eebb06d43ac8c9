import { Type } from 'typebox';
import { errors, Input, Lenient, Ok } from '../lib/schemas.ts';

export const Settings = Type.Object(
  { auth_enabled: Type.Boolean({ description: 'Commenting requires sign-in' }) },
  { title: 'Settings' },
);

export const getSchema = {
  summary: 'Public settings: `{auth_enabled}`',
  response: { 200: Settings },
};
export const putSchema = {
  summary: 'Change `auth_enabled` (whether commenting requires sign-in)',
  body: Input({ auth_enabled: Lenient(Type.Boolean({ description: 'true, 1, "1" or "true" turn it on' })) }, [
    'auth_enabled',
  ]),
  response: { 200: Ok, ...errors(400, 401) },
};
