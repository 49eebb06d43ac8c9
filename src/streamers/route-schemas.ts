import { Type } from 'typebox';
import { StreamList } from '../history/schemas.ts';
import { errors, Ok } from '../lib/schemas.ts';
import { ScheduleAnswer } from '../schedules/schemas.ts';
import {
  Created,
  CreateBody,
  CreateQuery,
  DeleteQuery,
  HistoryEntry,
  IdQuery,
  ListQuery,
  StreamerItem,
  UpdateBody,
} from './schemas.ts';

/** The routes of `/api/streamers` (routes.ts), from the payloads of schemas.ts. */
export const listSchema = {
  summary:
    'Public ranking, team view, or with `all=1` the full list for staff; with `id` the one item of that view, ' +
    'and with `id` and `history=1` every rating write of it, oldest first, and with `id` and `streams=1` its ' +
    'streams, newest first, and with `id` and `schedule=1` its schedule. Answers carry an ETag; `If-None-Match` gets 304',
  querystring: ListQuery,
  response: {
    200: Type.Union([
      Type.Array(StreamerItem),
      StreamerItem,
      Type.Array(HistoryEntry),
      StreamList,
      ScheduleAnswer,
    ]),
    304: Type.Null(),
    ...errors(400, 404),
  },
};
export const createSchema = {
  summary: 'Suggest a streamer, or with `admin=1` add one as administrator',
  querystring: CreateQuery,
  body: CreateBody,
  response: { 201: Created, ...errors(400, 401, 403, 409, 428, 429, 500) },
};
export const updateSchema = {
  summary:
    'Rate (and, for the administrator, edit) a streamer; with `lock` set the community lock. With `base_at`, ' +
    "refused with 409 when the rating changed since. With `reply`, the streamer's own reply under the rating; " +
    'with `schedule`, its hand-kept schedule (provider_b streamers)',
  querystring: IdQuery,
  body: UpdateBody,
  response: { 200: Ok, ...errors(400, 401, 403, 404, 409) },
};
export const deleteSchema = {
  summary:
    "Delete a streamer with its rating, comments and community ratings; with `reply`, staff remove the streamer's reply",
  querystring: DeleteQuery,
  response: { 200: Ok, ...errors(400, 401, 404) },
};
