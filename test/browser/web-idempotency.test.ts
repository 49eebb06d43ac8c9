import { describe, expect, it } from 'vitest';
import { errorBody } from '../../src/errors.ts';
import type { TestApp } from '../helpers/app.ts';
import { newPage, runBrowser, signIn, useBrowser } from './browser.ts';

let sid = 0;
async function seed(t: TestApp) {
  sid = await t.streamer('Retried Streamer', { s: 8, g: 7 });
}

/**
 * Issue 30 item 11: the page's writes carry an Idempotency-Key and a lost answer is retried once.
 * Issue 45 item 20: a 409 `idempotency_key_in_use` is sent again under the same key.
 */
describe.runIf(runBrowser(import.meta.url))('a write whose answer is lost on the way', () => {
  const env = useBrowser(seed);

  it('the comment stored before a 502 is sent again under the same key and stored once', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    const keys: (string | null)[] = [];
    await page.route('**/api/comments', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(await route.request().headerValue('idempotency-key'));
      const answer = await route.fetch();
      // The first answer is lost as when the instance dies behind the proxy: stored, but 502.
      if (keys.length === 1) return route.fulfill({ status: 502, body: 'Bad Gateway' });
      return route.fulfill({ response: answer });
    });
    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}/s/${sid}`);
    await page.getByLabel('Comment', { exact: true }).fill('Said once, sent twice');
    await page.getByRole('button', { name: 'Post comment' }).click();
    const bodies = page.locator('.comments .comment-body', { hasText: 'Said once, sent twice' });
    await expect.poll(() => bodies.count()).toBe(1);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const stored = await env.t.db
      .selectFrom('comments')
      .select('id')
      .where('body', '=', 'Said once, sent twice')
      .execute();
    expect(stored).toHaveLength(1);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
  it('a 409 for a key still in use is sent again under the same key after a pause, and stored once', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    const keys: (string | null)[] = [];
    await page.route('**/api/comments', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(await route.request().headerValue('idempotency-key'));
      // The first copy is still running elsewhere (or its instance died before its commit).
      if (keys.length === 1)
        return route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: JSON.stringify(errorBody('idempotency_key_in_use')),
        });
      return route.fulfill({ response: await route.fetch() });
    });
    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}/s/${sid}`);
    await page.getByLabel('Comment', { exact: true }).fill('Sent while the first copy ran');
    await page.getByRole('button', { name: 'Post comment' }).click();
    const bodies = page.locator('.comments .comment-body', { hasText: 'Sent while the first copy ran' });
    await expect.poll(() => bodies.count()).toBe(1);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const stored = await env.t.db
      .selectFrom('comments')
      .select('id')
      .where('body', '=', 'Sent while the first copy ran')
      .execute();
    expect(stored).toHaveLength(1);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
});
