import { Type } from 'typebox';
import {
  errors,
  IdDoc,
  Input,
  Lenient,
  Limit,
  Nullable,
  Ok,
  Param,
  StringEnum,
  Timestamp,
} from '../lib/schemas.ts';
import { NOTIFICATION_KINDS, NOTIFICATION_LIMITS } from '../shared/notifications.ts';

export const NotificationItem = Type.Object(
  {
    id: Type.Integer(),
    kind: StringEnum(NOTIFICATION_KINDS),
    at: Timestamp(),
    read: Type.Boolean(),
    streamer_id: Type.Integer(),
    streamer_name: Type.String(),
    /** The reply, the mentioning or liked or hidden comment; null for `rated` and `live`, and once deleted. */
    comment_id: Nullable(Type.Integer()),
    /** Who caused it: a display name or a guest's name; null for staff actions, ratings and `live`. */
    actor: Nullable(Type.String()),
  },
  { title: 'Notification', additionalProperties: false },
);

const Unread = Type.Integer({ minimum: 0, description: 'Unread notifications, as the list shows them' });

export const listSchema = {
  summary: `Your notifications, newest first: \`limit\` 1-${NOTIFICATION_LIMITS.listMax} (default ${NOTIFICATION_LIMITS.listDefault}), \`before\` pages by id`,
  querystring: Input({
    limit: Limit(`Default ${NOTIFICATION_LIMITS.listDefault}`, NOTIFICATION_LIMITS.listMax),
    before: Param(IdDoc('Notifications with an id below this one')),
  }),
  response: {
    200: Type.Object({ unread: Unread, items: Type.Array(NotificationItem) }, { title: 'Notifications' }),
    ...errors(400, 401),
  },
};

export const markSchema = {
  summary: `Mark notifications read: \`read\` (1-${NOTIFICATION_LIMITS.readIds} of your ids; others' are ignored) or \`all: true\``,
  body: Input(
    {
      read: Lenient(
        Type.Array(IdDoc(), {
          minItems: 1,
          maxItems: NOTIFICATION_LIMITS.readIds,
          description: 'These notifications',
        }),
      ),
      all: Lenient(Type.Boolean({ description: 'All of yours' })),
    },
    [],
    { oneField: true },
  ),
  response: {
    200: Type.Object({ ok: Ok.properties.ok, unread: Unread }, { title: 'NotificationsRead' }),
    ...errors(400, 401),
  },
};
