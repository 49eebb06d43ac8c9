import { Type } from 'typebox';
import { errors, Field, IdDoc, Input, Ok, StringEnum } from '../lib/schemas.ts';
import { LIMITS, REPORT_REASONS } from '../shared/rules.ts';

export const ReportBody = Input(
  {
    comment_id: Field('missing_comment_id', IdDoc('The comment reported')),
    reason: Field(
      'invalid_field',
      StringEnum(REPORT_REASONS, { description: 'Any other value counts as other' }),
      'reason',
    ),
    note: Field(
      'invalid_field',
      Type.String({ maxLength: LIMITS.reportNote, description: 'Optional; trimmed, cut to 500' }),
      'note',
    ),
  },
  ['comment_id', 'reason'],
);

export const reportSchema = {
  summary:
    'Report a comment (`reason`: spam, abuse or other; an optional `note`). One open report per ' +
    'comment and reporter: a repeat answers 201 and counts once',
  body: ReportBody,
  response: { 201: Ok, ...errors(400, 404, 429) },
};
