import { repeatKey } from '../comments/rules.ts';
import type { DbContext } from '../db/context.ts';
import type { StreamerStatus } from '../db/schema.ts';
import type { Provider } from '../shared/rules.ts';
import { writeTransaction } from '../db/transaction.ts';
import { upsertMember } from '../groups/member-queries.ts';
import { insertGroup } from '../groups/queries.ts';
import { moderatorReward, scoreSum } from '../lib/scores.ts';
import { replaceManual } from '../schedules/queries.ts';
import { manualSegments } from '../schedules/rules.ts';
import { insertStreamer, updateStreamer } from '../streamers/queries.ts';
import { saveRating } from '../streamers/rating-queries.ts';
import { upsertUser } from '../users/queries.ts';
import { DEMO_USERS, standInId } from '../signin/dev-users.ts';
import { isEmpty } from './data.ts';

/** A realistic sample so that a newcomer sees a living site. */
const STREAMERS: [
  name: string,
  platform: Provider,
  scores: [s: number, g: number, a: number, v: number, n: number, ns: number, o: number],
  extra: { status?: StreamerStatus; game?: string; title?: string },
][] = [
  [
    'PixelPaladin',
    'provider_a',
    [9, 9, 8, 9, 8, 9, 10],
    { status: 'live', game: 'Elden Ring', title: 'No-hit run, day 12' },
  ],
  ['NovaKicks', 'provider_b', [8, 9, 9, 7, 9, 8, 8], { game: 'Just Chatting', title: 'Ranking your setups' }],
  [
    'CzechMate',
    'provider_a',
    [7, 8, 6, 8, 7, 7, 9],
    { status: 'live', game: 'Chess', title: 'Blitz s diváky' },
  ],
  ['LunaLoops', 'provider_a', [6, 9, 8, 7, 8, 6, 8], { game: 'Music', title: 'Lo-fi live looping' }],
  ['TurboTereza', 'provider_b', [8, 6, 7, 7, 6, 8, 7], { game: 'F1 25', title: 'Liga, závod 7' }],
  [
    'BitBarista',
    'provider_a',
    [5, 7, 6, 6, 7, 5, 6],
    { game: 'Software and Game Development', title: 'Building a bot' },
  ],
  ['RetroRadek', 'provider_a', [6, 5, 5, 6, 6, 7, 8], { game: 'Retro', title: 'N64 classics' }],
  ['QuietQuill', 'provider_b', [4, 6, 5, 5, 6, 4, 7], { game: 'Art', title: 'Ink drawing' }],
  ['FreshFalcon', 'provider_a', [0, 0, 0, 0, 0, 0, 0], {}],
  ['MidnightMira', 'provider_b', [0, 0, 0, 0, 0, 0, 0], {}],
];
const COMMENTS: [author: string, body: string][] = [
  ['Jana', 'Skvělá grafika, alerty jsou super!'],
  ['Tom', 'Great overlays, the alerts could be a little quieter.'],
  ['Anonym', 'Konečně někdo, kdo má nastavený zvuk pořádně.'],
  ['Petr', 'Náhled by mohl být výraznější, jinak top.'],
];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * A Kick streamer's hand-kept schedule (Kick has no schedule API; DECISIONS.md "Schedules"):
 * every second or third evening of the next two weeks, from the `n`-th streamer's own hour (UTC),
 * made by the same rule as the editor's saves. Twitch streamers get theirs from the development
 * stand-in (sync/dev-schedule.ts) once live sync reads it.
 */
function demoSchedule(id: number, n: number, now: Date) {
  const midnight = Math.floor(now.getTime() / DAY) * DAY;
  const segments = [];
  for (let day = 0; day < 14; day++) {
    if ((day + n) % (2 + (n % 2)) !== 0) continue;
    const start = midnight + day * DAY + (17 + n) * HOUR;
    if (start + 3 * HOUR <= now.getTime()) continue;
    segments.push({
      start: new Date(start).toISOString(),
      end: new Date(start + 3 * HOUR).toISOString(),
      title: n % 2 === 0 ? 'Večerní stream' : 'Community night',
    });
  }
  return manualSegments(segments, id, now) ?? [];
}

/** The demo's own lists are fixed; an index past their end is a bug in this file. */
function nth<T>(list: T[], i: number): T {
  const item = list[i];
  if (item === undefined) throw new Error(`demo data has no item ${i}`);
  return item;
}

export async function fillDemo(
  database: DbContext,
  now: Date,
): Promise<{ streamers: number; comments: number }> {
  const { db } = database;
  if (!(await isEmpty(db))) throw new Error('the database is not empty; demo fills only an empty database');
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  let comments = 0;
  await writeTransaction(database, async (trx) => {
    const users = [];
    // The development stand-in's sample users (signin/dev-users.ts): same provider ids.
    for (const [i, u] of DEMO_USERS.entries()) {
      users.push(
        await upsertUser(
          trx,
          {
            provider: u.provider,
            provider_id: String(standInId(u.login)),
            login: u.login,
            display_name: u.display,
            avatar: '',
          },
          at(60 * (i + 1)),
        ),
      );
    }
    await trx
      .insertInto('moderators')
      .values({ user_id: nth(users, 2).id })
      .execute();

    const ids: number[] = [];
    for (const [i, [name, platform, values, extra]] of STREAMERS.entries()) {
      const id = await insertStreamer(trx, {
        name,
        platform,
        kick_name: platform === 'provider_b' ? name.toLowerCase() : '',
        added_by: i < 8 ? 'admin' : 'viewer',
        submitter: i < 8 ? '' : 'demo',
        created_at: at(10_000 - i),
      });
      ids.push(id);
      const [s, g, a, v, n, ns, o] = values;
      const scores = { s, g, a, v, n, ns, o };
      const sum = scoreSum(scores);
      if (sum > 0) {
        await saveRating(trx, id, {
          scores,
          reward: moderatorReward(sum),
          notes: i === 0 ? 'Top candidate for the monthly reward.' : null,
          updated_at: at(500 - i),
        });
      }
      await updateStreamer(trx, id, {
        evaluated: sum > 0 ? 1 : 0,
        status: extra.status ?? 'offline',
        game: extra.game ?? '',
        title: extra.title ?? '',
      });
      if (platform === 'provider_b' && sum > 0) await replaceManual(trx, id, demoSchedule(id, i % 4, now));
    }

    const team = await insertGroup(trx, {
      name: 'Noční hodnotitelé',
      streamer_id: nth(ids, 8),
      created_at: at(300),
    });
    await upsertMember(trx, {
      group_id: team.id,
      user_id: nth(users, 0).id,
      role: 'owner',
      added_at: at(299),
    });
    await upsertMember(trx, {
      group_id: team.id,
      user_id: nth(users, 1).id,
      role: 'rater',
      added_at: at(298),
    });

    for (const [i, [author, body]] of COMMENTS.entries()) {
      await trx
        .insertInto('comments')
        .values({
          streamer_id: nth(ids, i % 3),
          user_id: null,
          author,
          body,
          is_admin: 0,
          created_at: at(200 - i * 10),
          repeat_key: repeatKey(body),
        })
        .execute();
      comments++;
    }
    await trx
      .insertInto('comments')
      .values({
        streamer_id: nth(ids, 0),
        user_id: nth(users, 0).id,
        author: nth(users, 0).display_name,
        body: 'Za tým: tenhle stream hodnotíme příští týden.',
        repeat_key: repeatKey('Za tým: tenhle stream hodnotíme příští týden.'),
        is_admin: 0,
        created_at: at(5),
      })
      .execute();
    comments++;
  });
  return { streamers: STREAMERS.length, comments };
}
