/**
 * Issue 27's notifications list: a user with 10,000 notifications (a comment of theirs answered
 * 10,000 times by guests, through the API), the first page of their list timed on one
 * connection (p99 under 20 ms), against the same bytes from a bare server. The service runs
 * with its development sign-in stand-in (DEV_PROVIDERS) for this one measure: a visitor's
 * sign-in needs an identity provider, and the stand-in is the service's own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare, type Context, probeOk, rowOf } from './compare.ts';
import { callJson, inParallel, request } from './http.ts';
import { waitIdle } from './idle.ts';
import type { Row } from './report.ts';

export const NOTIFICATIONS = 10_000;
const PARALLEL = 16;

/** Signs in through the service's own stand-in provider; answers the session's cookie header. */
async function signIn(base: string, login: string): Promise<string> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = `${base}/api/oauth/login/provider_a`;
  for (let hop = 0; hop < 5; hop++) {
    const answer = await request(url, { headers: { cookie: cookie() } });
    for (const line of [answer.headers['set-cookie'] ?? []].flat()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = answer.headers.location;
    if (answer.status !== 302 || !location) break;
    const next = new URL(location, url);
    if (next.pathname.startsWith('/dev/')) next.searchParams.set('login', login);
    url = next.toString();
  }
  if (!jar.get('sid')) throw new Error('the stand-in sign-in set no session cookie');
  return `sid=${jar.get('sid')}`;
}

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
