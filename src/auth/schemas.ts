import { Type } from 'typebox';
import { Field, Input, Param, StringEnum } from '../lib/schemas.ts';
import { LIMITS } from '../shared/rules.ts';

const password = Type.String({ minLength: 1, description: 'The shared administrator password' });

export const LoginBody = Input({ password: Field('password_required', password) }, ['password']);
/** The action form's body: the password for `login`, nothing for `logout`. */
export const ActionBody = Input({
  password: Field(
    'password_required',
    Type.String({ ...password, description: 'Required with `action=login` (else 400 `password_required`)' }),
  ),
});
/** A new shared password: at least LIMITS.adminPasswordMin characters. */
export const PasswordBody = Input(
  {
    password: Field(
      'password_required',
      Type.String({
        minLength: LIMITS.adminPasswordMin,
        description: 'The new shared administrator password',
      }),
    ),
  },
  ['password'],
);
export const Check = Type.Object({ admin: Type.Boolean() }, { title: 'AdminCheck' });
export const CheckQuery = Input({ action: Param(StringEnum(['check'])) }, ['action']);
export const ActionQuery = Input({ action: Param(StringEnum(['login', 'logout'])) }, ['action']);
