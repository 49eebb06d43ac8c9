import { Type } from 'typebox';
import { errors, Field, IdDoc, Input, Ok, StringEnum } from '../lib/schemas.ts';
import { LIMITS, REPORT_REASONS } from '../shared/rules.ts';

export const ReportBody = Input(
  {
    comment_id: Field('missing_comment_id', IdDoc()),
    reason: Field(
      'invalid_field',
      StringEnum(REPORT_REASONS, { description: 'Anything else counts as other' }),
      'reason',
    ),
    note: Field(
      'invalid_field',
      Type.String({ maxLength: LIMITS.reportNote, description: 'Trimmed, cut to 500 characters' }),
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
