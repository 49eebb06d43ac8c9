/**
 * Issue 27's notifications list: a user with 10,000 notifications (a comment of theirs answered
 * 10,000 times by guests, through the API), the first page of their list timed on one
 * connection (p99 under 20 ms), against the same bytes from a bare server. The service runs
 * with its development sign-in stand-in (DEV_PROVIDERS, sign-in.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare, type Context, probeOk, rowOf } from './compare.ts';
import { callJson, inParallel } from './http.ts';
import { waitIdle } from './idle.ts';
import type { Row } from './report.ts';
import { signIn } from './sign-in.ts';

export const NOTIFICATIONS = 10_000;
const PARALLEL = 16;

export async function notificationPaths(ctx: Context, dir: string, streamerId: number): Promise<Row[]> {
  const base = ctx.service.url;
  const cookie = await signIn(base, 'benchreader');
  const { json: mine } = await callJson<{ id: number }>(`${base}/api/comments`, {
    method: 'POST',
    headers: { cookie, origin: base },
    body: JSON.stringify({ streamer_id: streamerId, body: 'Answer me, everyone.' }),
    expect: 201,
  });
  const replies = Array.from({ length: NOTIFICATIONS }, (_, i) => i);
  await inParallel(replies, PARALLEL, async (i) => {
    await callJson(`${base}/api/comments`, {
      method: 'POST',
      body: JSON.stringify({ streamer_id: streamerId, body: `Reply ${i + 1} to you.`, reply_to: mine.id }),
      expect: 201,
    });
  });
  await waitIdle(ctx.service);
  const path = '/api/notifications';
  const answer = await probeOk(ctx, path, { cookie });
  const { unread } = JSON.parse(answer.body.toString()) as { unread: number };
  ctx.log(
    `notifications: ${unread} unread after ${NOTIFICATIONS} replies; the first page ${answer.body.length} bytes`,
  );
  const file = join(dir, 'notifications.json');
  writeFileSync(file, answer.body);
  const list = { path, headers: { cookie }, connections: 1, expect: [200] };
  const name = `GET ${path}, ${NOTIFICATIONS.toLocaleString('en-US')} notifications, 1 connection`;
  const cmp = await compare(
    ctx,
    name,
    { mode: 'static', opts: { file }, load: { ...list, headers: {} } },
    list,
  );
  return [
    rowOf(ctx, cmp, {
      target: 'p99 < 20 ms',
      underP99Ms: 20,
      problems: unread === NOTIFICATIONS ? [] : [`${unread} unread, not ${NOTIFICATIONS}`],
    }),
  ];
}
