import { Type } from 'typebox';
import { Field, Param } from '../lib/schemas.ts';

export const LoginBody = Type.Object({ password: Field('password_required') });
export const PasswordBody = Type.Object({ password: Field('password_required') });
export const Check = Type.Object({ admin: Type.Boolean() });
export const ActionQuery = Type.Object({ action: Param() });
