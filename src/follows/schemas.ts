import { Type } from 'typebox';
import { errors, Field, IdDoc, Input, Limit, Ok, Param } from '../lib/schemas.ts';
import { FOLLOW_LIMIT } from '../shared/follows.ts';

const Followers = Type.Integer({ minimum: 0, description: "The streamer's followers after the change" });

export const followSchema = {
  summary:
    'Follow (`follow: true`) or stop following (`false`) a streamer of the Public view; a repeat ' +
    `changes nothing. At most ${FOLLOW_LIMIT} streamers per user (then 400 \`too_many_follows\`)`,
  querystring: Input({ streamer_id: Param(IdDoc()) }, ['streamer_id']),
  body: Input({ follow: Field('invalid_field', Type.Boolean({ description: 'Follow or not' }), 'follow') }, [
    'follow',
  ]),
  response: {
    200: Type.Object({ ok: Ok.properties.ok, followers: Followers }, { title: 'Followed' }),
    ...errors(400, 401, 403, 404),
  },
};

export const myFollowsSchema = {
  summary: 'The streamers you follow, by id, ascending: all of them, or with `limit` a page',
  querystring: Input({
    limit: Limit('The highest `limit` ids (below `before`), still ascending; without it, every follow'),
    before: Param(IdDoc('With `limit`: streamer ids below this one (the smallest of the previous page)')),
  }),
  response: {
    200: Type.Object({ streamer_ids: Type.Array(Type.Integer({ minimum: 1 })) }, { title: 'MyFollows' }),
    ...errors(400, 401),
  },
};
