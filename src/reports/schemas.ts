import { Type } from 'typebox';
import { errors, Field } from '../lib/schemas.ts';

export const ReportBody = Type.Object({
  comment_id: Field('missing_comment_id'),
  reason: Field('invalid_field', 'reason'),
  note: Field('invalid_field', 'note'),
});

export const reportSchema = {
  summary:
    'Report a comment (`reason`: spam, abuse or other; an optional `note`). One open report per ' +
    'comment and reporter: a repeat answers 201 and counts once',
  body: ReportBody,
  response: {
    201: Type.Object({ ok: Type.Unsafe<true>({ type: 'boolean' }) }),
    ...errors(400, 404, 429),
  },
};
