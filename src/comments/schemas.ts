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
  /** The comment this one answers (threads are one level deep), or null. */
  reply_to: Nullable(Type.Integer()),
  likes: Type.Integer(),
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
  reply_to: Nullable(Type.Integer()),
  user_display: Type.Optional(Type.String()),
  user_avatar: Type.Optional(Type.String()),
  user_provider: Type.Optional(StringEnum(PROVIDERS)),
});

export const ListQuery = Type.Object({
  streamer_id: Param(),
  limit: Param(),
  before: Param(),
  /** `mine=1`: the ids of this streamer's comments the signed-in user likes. */
  mine: Param(),
});
export const PostBody = Type.Object({
  streamer_id: Field('missing_streamer_id'),
  body: Field('comment_too_short'),
  author: Field('invalid_field', 'author'),
  reply_to: Field('invalid_reply_to'),
});
export const UpdateQuery = Type.Object({ id: Param(), like: Param() });
export const IdQuery = Type.Object({ id: Param() });
export const UpdateBody = Type.Object({
  hidden: Lenient(),
  body: Field('comment_too_short'),
  /** With `like=1`: like (true) or unlike (false). */
  liked: Lenient(),
});

export const Liked = Type.Object({ liked: Type.Array(Type.Integer()) });
export const LikeAnswer = Type.Object({ ok: Ok.properties.ok, likes: Type.Integer() });

export const listSchema = {
  summary:
    'Comments of a streamer, oldest first; with `limit` (1-100) the newest page of top-level comments ' +
    'below `before`, each with its replies. Answers carry an ETag; `If-None-Match` gets 304. With ' +
    '`mine=1` (signed in): `{liked: [comment ids]}`',
  querystring: ListQuery,
  response: { 200: Type.Union([Type.Array(CommentItem), Liked]), 304: Type.Null(), ...errors(400, 401, 404) },
};
export const postSchema = {
  summary: 'Post a comment (anonymous unless `auth_enabled`), or a reply with `reply_to`',
  body: PostBody,
  response: { 201: Posted, ...errors(400, 401, 403, 404, 429) },
};
export const updateSchema = {
  summary:
    'Hide or show a comment (staff any, the author their own), edit your own within 15 minutes, or ' +
    'with `like=1` like or unlike it (`{liked}`, signed-in users)',
  querystring: UpdateQuery,
  body: UpdateBody,
  response: { 200: Type.Union([LikeAnswer, Ok]), ...errors(400, 401, 403, 404) },
};
export const deleteSchema = {
  summary: 'Delete a comment',
  querystring: IdQuery,
  response: { 200: Ok, ...errors(400, 401, 404) },
};
