import { beforeAll, describe, expect, it } from 'vitest';
import { DB_RULES } from '../src/comments/rules.ts';
import type { ErrorCode } from '../src/errors.ts';
import { type TestApp, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/**
 * Every rule of a new comment that asks the database (src/comments/rules.ts DB_RULES), through
 * one path on both databases (src/comments/post.ts `postMany`): a post alone is a group of one,
 * and a group's posts are asked by one statement built from the same definitions, asked over
 * HTTP and directly.
 */
const t = await useApp({ TRUST_PROXY: '127.0.0.1' });
const guest = (address: string, app: TestApp = t) => app.client({ 'x-forwarded-for': address });
let admin: Client;
let sid = 0;
let parent = 0;

beforeAll(async () => {
  admin = await t.admin();
  sid = await t.streamer('Rules Streamer');
  parent = (await guest('198.51.100.1').post('/api/comments', { streamer_id: sid, body: 'the thread' })).body
    .id;
  await t.user({ login: 'rulekeeper', display_name: 'Rule Keeper' });
});

interface Scenario {
  /** Who posts, and the post that breaks the rule. */
  post: () => { client: Client; body: { streamer_id: number; body: string; author?: string } };
  /** A reply breaks it too (a rule about the streamer cannot: the thread is checked first). */
  reply: boolean;
  before?: () => Promise<void>;
  after?: () => Promise<void>;
}

let blockId = 0;
let timedOut = 0;
let signedOut: Client | null = null;
const SCENARIOS: Partial<Record<ErrorCode, Scenario>> = {
  sign_in_required: {
    post: () => ({ client: guest('198.51.100.2'), body: { streamer_id: sid, body: 'sign in first' } }),
    reply: true,
    before: async () => void (await admin.put('/api/settings', { auth_enabled: true })),
    after: async () => void (await admin.put('/api/settings', { auth_enabled: false })),
  },
  address_blocked: {
    post: () => ({ client: guest('198.51.100.3'), body: { streamer_id: sid, body: 'blocked here' } }),
    reply: true,
    before: async () => {
      const mine = await guest('198.51.100.3').post('/api/comments', {
        streamer_id: sid,
        body: 'to be blocked',
      });
      blockId = (await admin.post('/api/moderation/blocks', { comment_id: mine.body.id })).body.id;
    },
    after: async () => void (await admin.del(`/api/moderation/blocks?id=${blockId}`)),
  },
  // Issue 45 item 5: a time-out follows the browser the user signed out of while it lasts.
  timed_out: {
    post: () => ({ client: signedOut!, body: { streamer_id: sid, body: 'timed out, as a guest' } }),
    reply: true,
    before: async () => {
      const user = await t.user();
      signedOut = await t.signedIn(user);
      expect((await signedOut.get('/api/oauth/logout')).status).toBe(302);
      timedOut = user.id;
      await admin.put(`/api/users?id=${user.id}`, { timeout_hours: 1 });
    },
    after: async () => void (await admin.put(`/api/users?id=${timedOut}`, { timeout_hours: 0 })),
  },
  name_reserved: {
    post: () => ({
      client: guest('198.51.100.4'),
      body: { streamer_id: sid, body: 'whose name is this', author: 'RULE keeper' },
    }),
    reply: true,
  },
  // Issue 29: the guests' challenge, due for every guest under `always`.
  challenge_required: {
    post: () => ({ client: guest('198.51.100.6'), body: { streamer_id: sid, body: 'prove yourself' } }),
    reply: true,
    before: async () => void (await admin.put('/api/settings', { guest_challenge: 'always' })),
    after: async () => void (await admin.put('/api/settings', { guest_challenge: 'burst' })),
  },
  // DECISIONS.md "Words and repeats": the author's comments of the last minutes again, in
  // other letters, case and punctuation (the folded body is compared).
  duplicate_comment: {
    post: () => ({ client: guest('198.51.100.7'), body: { streamer_id: sid, body: 'say it again' } }),
    reply: true,
    before: async () => {
      for (const body of ['SAY it, again!', 'Say it again: REPLY', 'say IT again... grouped']) {
        expect((await guest('198.51.100.7').post('/api/comments', { streamer_id: sid, body })).status).toBe(
          201,
        );
      }
      await admin.put('/api/settings', { refuse_repeats: true });
    },
    after: async () => void (await admin.put('/api/settings', { refuse_repeats: false })),
  },
  streamer_not_found: {
    post: () => ({ client: guest('198.51.100.5'), body: { streamer_id: 999_999, body: 'nobody here' } }),
    reply: false,
  },
};

const storedBodies = async () =>
  (await t.db.selectFrom('comments').select('body').execute()).map((r) => r.body);

describe('the rules of a new comment that ask the database', () => {
  it('each has its scenario here', () => {
    expect(DB_RULES.map((r) => r.error).filter((e) => !SCENARIOS[e])).toEqual([]);
  });

  describe.each(DB_RULES.map((rule) => [rule.error] as const))('%s', (error) => {
    const scenario = () => SCENARIOS[error] as Scenario;

    it('refuses a top-level comment and a reply with its error; nothing is stored', async () => {
      const { before, after, post, reply } = scenario();
      await before?.();
      try {
        const { client, body } = post();
        const res = await client.post('/api/comments', body);
        expect(res.body).toMatchObject({ code: error });
        if (reply) {
          const res2 = await client.post('/api/comments', {
            ...body,
            body: `${body.body} (reply)`,
            reply_to: parent,
          });
          expect(res2.body).toMatchObject({ code: error });
        }
        const stored = await storedBodies();
        expect(stored.filter((b) => b.startsWith(body.body))).toEqual([]);
      } finally {
        await after?.();
      }
    });

    it('refuses it inside a group commit while a good post of the same group is stored', async () => {
      const { before, after, post } = scenario();
      await before?.();
      try {
        const { client, body } = post();
        // Sent in the same turn: both join one group (db/transaction.ts), each in its savepoint.
        const [bad, good] = await Promise.all([
          client.post('/api/comments', { ...body, body: `${body.body} (grouped)` }),
          admin.post('/api/comments', { streamer_id: sid, body: `good one beside ${error}` }),
        ]);
        expect(bad.body).toMatchObject({ code: error });
        expect(good.status).toBe(201);
        const stored = await storedBodies();
        expect(stored.filter((b) => b.startsWith(`${body.body} (grouped)`))).toEqual([]);
        expect(stored).toContain(`good one beside ${error}`);
      } finally {
        await after?.();
      }
    });
  });
});
