import { Type } from 'typebox';
import { CommentItem } from '../comments/schemas.ts';
import { errors, Field, Lenient, Nullable, Ok, Param, Timestamp } from '../lib/schemas.ts';

export const QueueItem = Type.Object({
  ...CommentItem.properties,
  streamer_id: Type.Integer(),
  streamer_name: Type.String(),
  reports: Type.Integer(),
  /** The first 10 characters of the address tag of a guest comment; null for signed-in authors. */
  guest_tag: Nullable(Type.String()),
});

export const queueSchema = {
  summary:
    'Comments of every streamer for staff: `filter=reported` (default; open reports, most first) or ' +
    '`recent` (newest first, `before` pages by id); `limit` 1-100, default 50',
  querystring: Type.Object({ filter: Param(), limit: Param(), before: Param() }),
  response: { 200: Type.Array(QueueItem), ...errors(401) },
};

export const bulkSchema = {
  summary:
    'Act on comments in bulk: exactly one selector (`ids`, 1-100; `user_id`; or `guest_tag`) and an ' +
    '`action` (hide, show, delete, or dismiss: close the open reports). Answers how many changed',
  body: Type.Object({ ids: Lenient(), user_id: Lenient(), guest_tag: Lenient(), action: Lenient() }),
  response: {
    200: Type.Object({ ok: Type.Unsafe<true>({ type: 'boolean' }), count: Type.Integer() }),
    ...errors(400, 401),
  },
};

export const Block = Type.Object({
  id: Type.Integer(),
  guest_tag: Type.String(),
  created_at: Timestamp(),
  expires_at: Timestamp(),
  created_by: Type.String(),
  comment_id: Nullable(Type.Integer()),
});

export const createBlockSchema = {
  summary: "Block the address of a guest comment's author for `days` (1-365, default 7)",
  body: Type.Object({ comment_id: Field('missing_comment_id'), days: Field('invalid_field', 'days') }),
  response: {
    201: Type.Object({ ok: Type.Unsafe<true>({ type: 'boolean' }), id: Type.Integer() }),
    ...errors(400, 401, 404),
  },
};
export const listBlocksSchema = {
  summary: 'Active address blocks, newest first',
  response: { 200: Type.Array(Block), ...errors(401) },
};
export const deleteBlockSchema = {
  summary: 'Lift an address block',
  querystring: Type.Object({ id: Param() }),
  response: { 200: Ok, ...errors(400, 401, 404) },
};
