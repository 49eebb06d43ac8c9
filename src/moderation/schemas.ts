import { Type } from 'typebox';
import { CommentItem } from '../comments/schemas.ts';
import {
  errors,
  Field,
  IdDoc,
  Input,
  Limit,
  Lenient,
  Nullable,
  Ok,
  Param,
  StringEnum,
  Timestamp,
} from '../lib/schemas.ts';
import { HELD_FOR } from './held-for.ts';
import { LIMITS, MODERATION_ACTIONS, REPORT_REASONS } from '../shared/rules.ts';

export const QueueItem = Type.Object(
  {
    ...CommentItem.properties,
    streamer_id: Type.Integer(),
    streamer_name: Type.String(),
    reports: Type.Integer(),
    /** The first 10 characters of the address tag of a guest comment; null for signed-in authors. */
    guest_tag: Nullable(Type.String()),
    /** The author's account is banned now (false for guests): the page offers it no time-out. */
    user_banned: Type.Boolean(),
    /** Guest comments: how many comments from this address a bulk action by `guest_tag` takes. */
    address_comments: Nullable(Type.Integer()),
    /** The open reports, newest first, without the reporters (issue 29). */
    report_reasons: Type.Array(
      Type.Object({ reason: StringEnum(REPORT_REASONS), note: Type.String(), at: Timestamp() }),
    ),
    /**
     * Held comments: why they wait, the first that applies today (`account`: the author's
     * account may be a banned user's return; `words`: the administrator's words, in
     * `held_words`; `link`: a guest's link; `guest`: the guest hold). Null when not held.
     */
    held_for: Nullable(StringEnum(HELD_FOR)),
    /** The administrator's words the body holds (as written); empty when none. */
    held_words: Type.Array(Type.String()),
  },
  { title: 'QueuedComment' },
);

const guestTag = Type.String({ pattern: '^[0-9a-f]{10,64}$', description: 'A guest tag (as staff see it)' });

export const queueSchema = {
  summary:
    'Comments of every streamer for staff: `filter=reported` (default; open reports, most first) or ' +
    '`recent` (newest first, `before` pages by id) or `pending` (held comments, oldest first); `limit` ' +
    '1-100, default 50; `guest_tag`: only the comments an action by that address takes',
  querystring: Input({
    filter: Param(StringEnum(['reported', 'recent', 'pending'], { description: 'Default reported' })),
    limit: Limit('Default 50'),
    before: Param(IdDoc('With `recent`: comments with an id below this one')),
    guest_tag: Param(guestTag),
  }),
  response: { 200: Type.Array(QueueItem), ...errors(400, 401) },
};

export const bulkSchema = {
  summary:
    'Act on comments in bulk: exactly one selector (`ids`, 1-100; `user_id`; or `guest_tag`) and an ' +
    '`action` (hide, show, delete, dismiss: close the open reports, or approve: publish held ones). ' +
    'Answers how many changed',
  body: Input(
    {
      ids: Lenient(
        Type.Array(IdDoc(), { minItems: 1, maxItems: LIMITS.bulkIds, description: 'These comments' }),
      ),
      user_id: Lenient(IdDoc("This user's comments")),
      guest_tag: Lenient(guestTag),
      action: Lenient(StringEnum(MODERATION_ACTIONS)),
    },
    ['action'],
  ),
  response: {
    200: Type.Object({ ok: Ok.properties.ok, count: Type.Integer() }, { title: 'BulkResult' }),
    ...errors(400, 401),
  },
};

export const Block = Type.Object(
  {
    id: Type.Integer(),
    guest_tag: Type.String(),
    created_at: Timestamp(),
    expires_at: Timestamp(),
    created_by: Type.String(),
    comment_id: Nullable(Type.Integer()),
  },
  { title: 'AddressBlock' },
);

export const createBlockSchema = {
  summary: "Block the address of a guest comment's author for `days` (1-365, default 7)",
  body: Input(
    {
      comment_id: Field('missing_comment_id', IdDoc('A guest comment')),
      days: Field(
        'invalid_field',
        Type.Integer({ minimum: 1, maximum: LIMITS.blockDaysMax, description: 'Default 7' }),
        'days',
      ),
    },
    ['comment_id'],
  ),
  response: {
    201: Type.Object({ ok: Ok.properties.ok, id: Type.Integer() }, { title: 'Created' }),
    ...errors(400, 401, 404),
  },
};
export const listBlocksSchema = {
  summary:
    'Active address blocks, newest first, `limit` (1 to 100, default 100) at a time below the id `before`',
  querystring: Input({ limit: Limit('Default 100'), before: Param(IdDoc('Blocks with a lower id')) }),
  response: { 200: Type.Array(Block), ...errors(400, 401) },
};
export const deleteBlockSchema = {
  summary: 'Lift an address block',
  querystring: Input({ id: Param(IdDoc()) }, ['id']),
  response: { 200: Ok, ...errors(400, 401, 404) },
};
