import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import { R } from './helpers/streamers.ts';

/**
 * DECISIONS.md "Errors": where several errors apply, authentication and role (401/403) come
 * before missing input (400). The operations whose caller rule depends on a row (a streamer's
 * reply and schedule, staff reviews, re-rating requests, a browser's own comments) ask for its
 * id only once the caller has passed. Over HTTP on SQLite and PostgreSQL.
 */
const t = await useApp();
const admin = await t.admin();

const errorOf = async (res: Promise<{ status: number; body: { error?: string } }>) => {
  const { status, body } = await res;
  return `${status} ${body.error}`;
};

describe('no id: who is calling is answered first', () => {
  it('anonymous: 401 on every operation that needs a caller, never 400', async () => {
    const c = t.client();
    expect(await errorOf(c.put('/api/reviews', { r: R(5) }))).toBe('401 Unauthorized');
    expect(await errorOf(c.post('/api/reviews?publish=1', {}))).toBe('401 Unauthorized');
    expect(await errorOf(c.post('/api/reviews?request=1', { reason: 'Please look again' }))).toBe(
      '401 Not logged in',
    );
    expect(await errorOf(c.put('/api/streamers?reply=1', { body: 'Thanks for the rating' }))).toBe(
      '401 Not logged in',
    );
    expect(await errorOf(c.put('/api/streamers?schedule=1', { segments: [] }))).toBe('401 Not logged in');
    expect(await errorOf(c.get('/api/comments?mine=1'))).toBe('401 Not logged in');
  });

  it('a signed-in user who is not staff: 401 on staff reviews and publishing; 400 where the right depends on the streamer', async () => {
    const plain = await t.signedIn(await t.user());
    expect(await errorOf(plain.put('/api/reviews', { r: R(5) }))).toBe('401 Unauthorized');
    expect(await errorOf(plain.post('/api/reviews?publish=1', {}))).toBe('401 Unauthorized');
    expect(await errorOf(plain.post('/api/reviews?request=1', { reason: 'Please look again' }))).toBe(
      '400 Missing streamer_id',
    );
    expect(await errorOf(plain.put('/api/streamers?reply=1', { body: 'Thanks for the rating' }))).toBe(
      '400 Missing id',
    );
    expect(await errorOf(plain.put('/api/streamers?schedule=1', { segments: [] }))).toBe('400 Missing id');
    expect(await errorOf(plain.get('/api/comments?mine=1'))).toBe('400 Missing streamer_id');
  });

  it('a moderator publishing: 401; staff who may: 400 for the missing streamer', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    expect(await errorOf(mod.post('/api/reviews?publish=1', {}))).toBe('401 Unauthorized');
    expect(await errorOf(mod.put('/api/reviews', { r: R(5) }))).toBe('400 Missing streamer_id');
    expect(await errorOf(admin.post('/api/reviews?publish=1', {}))).toBe('400 Missing streamer_id');
  });
});
