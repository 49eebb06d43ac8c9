/**
 * Fills a fresh service through its public API only, as an administrator and visitors would:
 * rated streamers and one streamer with many comments. Nothing here touches the database.
 */
import { callJson, inParallel, shed } from './http.ts';

export const ADMIN_PASSWORD = 'bench-admin-password';
const PARALLEL = 16;

export interface Seeded {
  /** Cookie header of an administrator session. */
  adminCookie: string;
  streamerIds: number[];
  /** The streamer with `comments` comments. */
  busyStreamerId: number;
}

/** Logs in as administrator and returns the session cookie (`sid=...`). */
export async function logIn(base: string): Promise<string> {
  const { answer } = await callJson(`${base}/api/auth/login`, {
    method: 'POST',
    body: JSON.stringify({ password: ADMIN_PASSWORD }),
    expect: 200,
  });
  const setCookie = [answer.headers['set-cookie'] ?? []].flat()[0] ?? '';
  const cookie = setCookie.split(';')[0] ?? '';
  if (!cookie.includes('=')) throw new Error('administrator login set no session cookie');
  return cookie;
}

/** A small deterministic generator, so that every run seeds the same catalogue. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const SYLLABLES = 'ka ro mi zen tor ly va nex qu dar el sho pix ur bo'.split(' ');
const GAMES = [
  'Just Chatting',
  'Counter-Strike 2',
  'League of Legends',
  'Minecraft',
  'Grand Theft Auto V',
  'Valorant',
  'Fortnite',
  'World of Warcraft',
  'Dota 2',
  'Elden Ring',
  'Apex Legends',
  'Hearthstone',
];
const WORDS = 'ranked grind chill stream with viewers road to top late night new patch first look'.split(' ');

/** A varied catalogue (names, games, titles, scores), as a real one would compress. */
export function streamerOf(i: number) {
  const next = random(i + 1);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const word = Array.from({ length: 2 + Math.floor(next() * 3) }, () => pick(SYLLABLES)).join('');
  const name = `${word[0]!.toUpperCase()}${word.slice(1)}${next() < 0.4 ? Math.floor(next() * 1000) : ''} ${i + 1}`;
  const score = () => 1 + Math.floor(next() * 10);
  return {
    create: {
      name,
      platform: next() < 0.5 ? 'provider_a' : 'provider_b',
      kick_name: name.toLowerCase().replace(/\s+/g, ''),
    },
    rate: {
      r: { s: score(), g: score(), a: score(), v: score(), n: score(), ns: score(), o: score() },
      reward: Math.floor(next() * 131),
      status: next() < 0.2 ? 'live' : 'offline',
      game: pick(GAMES),
      title: Array.from({ length: 4 + Math.floor(next() * 6) }, () => pick(WORDS)).join(' '),
      kick_name: name.toLowerCase().replace(/\s+/g, ''),
    },
  };
}

/** A comment body of about 150 characters, different for each comment. */
export function commentBody(i: number): string {
  return `Comment ${i}: great stream today, the overlay looked sharp and the alerts were well timed. Looking forward to the next one, keep it up!`;
}

export async function seed(
  base: string,
  counts: { streamers: number; comments: number },
  log: (line: string) => void,
): Promise<Seeded> {
  const shedBefore = shed.count;
  const adminCookie = await logIn(base);
  const headers = { cookie: adminCookie };

  const streamerIds: number[] = new Array<number>(counts.streamers);
  const indexes = Array.from({ length: counts.streamers }, (_, i) => i);
  await inParallel(indexes, PARALLEL, async (i) => {
    const { json } = await callJson<{ id: number }>(`${base}/api/streamers?admin=1`, {
      method: 'POST',
      headers,
      body: JSON.stringify(streamerOf(i).create),
      expect: 201,
    });
    streamerIds[i] = json.id;
  });
  await inParallel(indexes, PARALLEL, async (i) => {
    await callJson(`${base}/api/streamers?id=${streamerIds[i]}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify(streamerOf(i).rate),
      expect: 200,
    });
  });
  log(`${counts.streamers} streamers added and rated`);

  const busyStreamerId = streamerIds[0]!;
  const comments = Array.from({ length: counts.comments }, (_, i) => i);
  await inParallel(comments, PARALLEL, async (i) => {
    await callJson(`${base}/api/comments`, {
      method: 'POST',
      body: JSON.stringify({ streamer_id: busyStreamerId, body: commentBody(i + 1) }),
      expect: 201,
    });
  });
  log(`${counts.comments} comments posted on streamer #${busyStreamerId}`);
  const refused = shed.count - shedBefore;
  if (refused > 0) log(`the service shed load while seeding: ${refused} answers 503, retried`);
  return { adminCookie, streamerIds, busyStreamerId };
}
