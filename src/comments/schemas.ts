import { type Static, type TSchema, Type } from 'typebox';
import type { ErrorCode } from '../errors.ts';
import {
  DOCUMENTED,
  errors,
  Field,
  FlagDoc,
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
import { COMMENT_ORDERS, COMMENT_PAGES, LIMITS, PROVIDERS } from '../shared/rules.ts';
import { GUEST_NAME_RULE } from '../guests/names.ts';

export const CommentItem = Type.Object(
  {
    id: Type.Integer(),
    author: Type.String(),
    body: Type.String(),
    is_admin: Type.Boolean(),
    created_at: Timestamp(),
    user_id: Nullable(Type.Integer()),
    user_display: Nullable(Type.String()),
    user_avatar: Nullable(Type.String()),
    user_provider: Nullable(StringEnum(PROVIDERS)),
    team_ids: Type.Array(Type.Integer()),
    /** Only administrators and moderators ever see `true`. */
    hidden: Type.Boolean(),
    edited_at: Nullable(Timestamp()),
    /** The comment this one answers (threads are one level deep), or null. */
    reply_to: Nullable(Type.Integer()),
    likes: Type.Integer(),
    /** The author's staff role now (an administrator account or a moderator), for the page's badges. */
    user_role: Nullable(StringEnum(['admin', 'moderator'])),
    /** The author speaks for the comment's streamer (issue 26). */
    is_streamer: Type.Boolean(),
    /** Pinned by staff or by the streamer: first in every order of the streamer's list, one per streamer. */
    pinned: Type.Boolean(),
    /** Staff only: open reports. */
    reports: Type.Optional(Type.Integer({ description: 'Staff only: open reports' })),
    /** Staff only: the first 10 characters of a guest comment's address tag; null for signed-in authors. */
    guest_tag: Type.Optional(
      Nullable(Type.String({ description: "Staff only: a guest's address tag (10 characters)" })),
    ),
    /** Staff only: held for a moderator (issue 29), in no other answer until approved. */
    pending: Type.Optional(
      Type.Boolean({ description: "Waits for approval: for staff, and in its own author's `mine=1` answer" }),
    ),
  },
  { title: 'Comment' },
);
export type CommentItem = Static<typeof CommentItem>;

export const Posted = Type.Object(
  {
    id: Type.Integer(),
    author: Type.String(),
    body: Type.String(),
    is_admin: Type.Boolean(),
    created_at: Timestamp(),
    reply_to: Nullable(Type.Integer()),
    user_display: Type.Optional(Type.String({ description: 'When posted by a signed-in user' })),
    user_avatar: Type.Optional(Type.String({ description: 'When posted by a signed-in user' })),
    user_provider: Type.Optional(StringEnum(PROVIDERS, { description: 'When posted by a signed-in user' })),
    pending: Type.Optional(
      Type.Boolean({ description: 'Held for a moderator: shown to nobody else until approved (issue 29)' }),
    ),
  },
  { title: 'PostedComment' },
);

const commentBody = Type.String({
  minLength: LIMITS.commentMin,
  maxLength: LIMITS.commentMax,
  description: 'Trimmed; 2 to 1000 characters',
});

/**
 * A query parameter whose text must match `pattern`, else 400 `code`; `doc` is what a client
 * should send (a query value is always text, plugins/parsers.ts: the pattern is what refuses).
 */
const Checked = (pattern: string, code: ErrorCode, doc: TSchema) =>
  Type.Optional(Type.String({ pattern, errorCode: code, [DOCUMENTED]: { ...doc, 'x-error-code': code } }));

export const ListQuery = Input(
  {
    streamer_id: Param(IdDoc()),
    limit: Limit(
      `A page of top-level comments, each with its replies (\`order=top\`: default ${COMMENT_PAGES.topLimit})`,
    ),
    before: Param(
      IdDoc(
        'With `limit`, newest order: comments with an id below this one (the smallest id of the ' +
          "previous page's comments that are not pinned); the pinned comment is on the first page only",
      ),
    ),
    /** DECISIONS.md "Comments: pinned and ordered": any other value is 400 `Invalid order`. */
    order: Checked(
      `^(?:${COMMENT_ORDERS.join('|')})$`,
      'invalid_order',
      StringEnum(COMMENT_ORDERS, {
        description:
          '`newest` (default): the pages of `limit` and `before`; `top`: top-level comments by likes, then ' +
          'newest, paged by `limit` and `offset`. The pinned comment comes first either way',
      }),
    ),
    offset: Checked(
      `^0*(?:0|[1-9][0-9]{0,3}|${COMMENT_PAGES.offsetMax})$`,
      'invalid_offset',
      Type.Integer({
        minimum: 0,
        maximum: COMMENT_PAGES.offsetMax,
        description:
          'With `order=top`: how many top-level comments to skip (the pinned one is not counted: it is on the first page only)',
      }),
    ),
    /** `mine=1`: the ids of this streamer's comments the signed-in user likes. */
    mine: Param(FlagDoc("Signed in: the ids of this streamer's comments you like")),
  },
  ['streamer_id'],
);
export const PostBody = Input(
  {
    streamer_id: Field('missing_streamer_id', IdDoc()),
    body: Field('comment_too_short', commentBody),
    author: Field(
      'invalid_field',
      Type.String({
        maxLength: LIMITS.author,
        description: `A guest's name, cut to 50; default "Anonym"; ${GUEST_NAME_RULE}`,
      }),
      'author',
    ),
    reply_to: Field('invalid_reply_to', IdDoc('A comment of the same streamer to answer')),
    altcha: Field(
      'challenge_invalid',
      Type.String({
        maxLength: 2000,
        description:
          "A guest's solution of the challenge (after 428): base64 of `{algorithm, challenge, number, salt, signature}`",
      }),
    ),
  },
  ['streamer_id', 'body'],
);
export const UpdateQuery = Input(
  {
    id: Param(IdDoc()),
    like: Param(FlagDoc('Like or unlike: the body is `{liked}`')),
    pin: Param(
      FlagDoc(
        "Pin or unpin (staff, or the user who speaks for the comment's streamer): the body is `{pinned}`",
      ),
    ),
  },
  ['id'],
);
export const IdQuery = Input({ id: Param(IdDoc()) }, ['id']);
export const UpdateBody = Input(
  {
    hidden: Lenient(Type.Boolean({ description: 'Hide or show again' })),
    body: Field('comment_too_short', commentBody),
    /** With `like=1`: like (true) or unlike (false). */
    liked: Lenient(Type.Boolean({ description: 'With `like=1`: like (true) or unlike (false)' })),
    /** With `pin=1`: pin (true; the streamer's pinned comment before is unpinned) or unpin (false). */
    pinned: Lenient(
      Type.Boolean({
        description:
          "With `pin=1`, required: pin (true, unpinning the streamer's other one) or unpin (false)",
      }),
    ),
  },
  [],
  { oneField: true },
);

export const Mine = Type.Object(
  {
    liked: Type.Array(Type.Integer(), { description: 'The comments this signed-in user likes' }),
    own: Type.Array(Type.Integer(), {
      description: "This browser's guest comments here (its session keeps the last 100): it may delete them",
    }),
    held: Type.Array(CommentItem, {
      description:
        "This viewer's own comments waiting for a moderator, with `pending: true`; shown to nobody else",
    }),
  },
  { title: 'MyComments' },
);
export const LikeAnswer = Type.Object({ ok: Ok.properties.ok, likes: Type.Integer() }, { title: 'Liked' });

export const listSchema = {
  summary:
    'Comments of a streamer, oldest first; with `limit` (1-100) the newest page of top-level comments ' +
    'below `before`, each with its replies; with `order=top`, a page by likes from `offset`. The pinned ' +
    'comment (with its replies) comes first, on the first page only. Answers carry an ETag; ' +
    "`If-None-Match` gets 304. With `mine=1`: what is this viewer's, `{liked, own, held}`",
  querystring: ListQuery,
  response: { 200: Type.Union([Type.Array(CommentItem), Mine]), 304: Type.Null(), ...errors(400, 401, 404) },
};
export const postSchema = {
  summary: 'Post a comment (anonymous unless `auth_enabled`), or a reply with `reply_to`',
  body: PostBody,
  response: { 201: Posted, ...errors(400, 401, 403, 404, 428, 429) },
};
export const updateSchema = {
  summary:
    'Hide or show a comment (staff any, the author their own), edit your own within 15 minutes, ' +
    'with `like=1` like or unlike it (`{liked}`, signed-in users; banned 403), or with `pin=1` pin or ' +
    'unpin it (`{pinned}`, staff or the user who speaks for its streamer; one pinned per streamer). ' +
    'Without `like` or `pin` the body carries `hidden` or `body` (else 400 `nothing_to_update`)',
  querystring: UpdateQuery,
  body: UpdateBody,
  response: { 200: Type.Union([LikeAnswer, Ok]), ...errors(400, 401, 403, 404) },
};
export const deleteSchema = {
  summary: 'Delete a comment: the administrator any, a guest one this browser posted (`own` in `mine=1`)',
  querystring: IdQuery,
  response: { 200: Ok, ...errors(400, 401, 404) },
};
