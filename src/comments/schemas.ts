import { type Static, Type } from 'typebox';
import { errors, Field, Lenient, Nullable, Ok, Param, StringEnum } from '../lib/schemas.ts';
import { PROVIDERS } from '../shared/rules.ts';

export const CommentItem = Type.Object({
  id: Type.Integer(),
  author: Type.String(),
  body: Type.String(),
  is_admin: Type.Boolean(),
  created_at: Type.String(),
  user_id: Nullable(Type.Integer()),
  user_display: Nullable(Type.String()),
  user_avatar: Nullable(Type.String()),
  user_provider: Nullable(StringEnum(PROVIDERS)),
  team_ids: Type.Array(Type.Integer()),
  /** Only administrators and moderators ever see `true`. */
  hidden: Type.Boolean(),
  edited_at: Nullable(Type.String()),
  /** The author's staff role now (an administrator account or a moderator), for the page's badges. */
  user_role: Nullable(StringEnum(['admin', 'moderator'])),
  /** Staff only: open reports. */
  reports: Type.Optional(Type.Integer()),
  /** Staff only: the first 10 characters of a guest comment's address tag; null for signed-in authors. */
  guest_tag: Type.Optional(Nullable(Type.String())),
});
export type CommentItem = Static<typeof CommentItem>;

export const Posted = Type.Object({
  id: Type.Integer(),
  author: Type.String(),
  body: Type.String(),
  is_admin: Type.Boolean(),
  created_at: Type.String(),
  user_display: Type.Optional(Type.String()),
  user_avatar: Type.Optional(Type.String()),
  user_provider: Type.Optional(StringEnum(PROVIDERS)),
});

export const ListQuery = Type.Object({ streamer_id: Param(), limit: Param(), before: Param() });
export const PostBody = Type.Object({
  streamer_id: Field('missing_streamer_id'),
  body: Field('comment_too_short'),
  author: Field('invalid_field', 'author'),
});
export const IdQuery = Type.Object({ id: Param() });
export const UpdateBody = Type.Object({
  hidden: Lenient(),
  body: Field('comment_too_short'),
});

export const listSchema = {
  summary:
    'Comments of a streamer, oldest first; with `limit` (1-100) the newest page below `before`. ' +
    'Answers carry an ETag; `If-None-Match` gets 304',
  querystring: ListQuery,
  response: { 200: Type.Array(CommentItem), 304: Type.Null(), ...errors(400, 404) },
};
export const postSchema = {
  summary: 'Post a comment (anonymous unless `auth_enabled`)',
  body: PostBody,
  response: { 201: Posted, ...errors(400, 401, 404, 429) },
};
export const updateSchema = {
  summary: 'Hide or show a comment (staff any, the author their own), or edit your own within 15 minutes',
  querystring: IdQuery,
  body: UpdateBody,
  response: { 200: Ok, ...errors(400, 401, 403, 404) },
};
export const deleteSchema = {
  summary: 'Delete a comment',
  querystring: IdQuery,
  response: { 200: Ok, ...errors(400, 401, 404) },
};
