import { type Answer, jsonAnswer } from '../cache/answer.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { parseId } from '../lib/input.ts';
import { pageLimit } from '../lib/schemas.ts';
import { streamerExists } from '../streamers/queries.ts';
import { listComments } from './queries.ts';

/**
 * A streamer's comments, whole or one page (DECISIONS.md "Comments"), as staff or as everyone
 * else sees them: made once per change of the content and kept (cache/answers.ts), as bytes
 * only (the items of a busy streamer are tens of thousands of objects).
 */
export function commentList(
  ctx: AppContext,
  streamerId: number,
  staff: boolean,
  query: { limit?: string; before?: unknown },
): Promise<Answer> {
  const page =
    query.limit === undefined
      ? undefined
      : { limit: pageLimit(query.limit, 0), before: parseId(query.before) };
  const key = `comments:${streamerId}:${staff ? 'all' : 'visible'}:${page ? `${page.limit}:${page.before}` : '-'}`;
  return ctx.answers.get(key, async (version) => {
    if (!(await streamerExists(ctx.db, streamerId))) throw fail('streamer_not_found');
    return jsonAnswer(await listComments(ctx.db, streamerId, { withHidden: staff, page }), version);
  });
}
