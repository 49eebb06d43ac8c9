import { describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { PUSH_LIMITS } from '../../src/shared/push.ts';
import { adminPage, axe, newPage, runBrowser, shot, useBrowser } from './browser.ts';

/**
 * Issue 30 item 22 and issue 29, in the page: a guest sees their held comment, marked as
 * waiting for a moderator, after a reload too (and nobody else sees it); a guest deletes their
 * own comment from the same browser; the privacy page names the operator.
 */
let sid = 0;
async function seed(t: TestApp) {
  sid = await t.streamer('Guest Own Stage', { s: 6, g: 6 });
  await t
    .client()
    .post('/api/comments', { streamer_id: sid, body: 'Somebody else wrote this', author: 'Other' });
  const admin = await t.sharedAdmin();
  await admin.put('/api/settings', { guest_hold: 'all', guest_challenge: 'off' });
}

describe.runIf(runBrowser(import.meta.url))("a guest's own comments", () => {
  const env = useBrowser(seed);

  it('at 375 px: the held comment waits for a moderator, after a reload too, for its browser only; the guest deletes their own', async () => {
    const { page, context } = await newPage(env, { lang: 'en', phone: true });
    await page.goto(`${env.base}/s/${sid}`);
    await page.getByLabel('Comment', { exact: true }).fill('My held words');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await page.getByText('Your comment waits for a moderator.').waitFor();
    const held = page.locator('.comments > li', { hasText: 'My held words' });
    await held.getByText('waiting for a moderator').waitFor();
    await page.reload();
    await held.getByText('waiting for a moderator').waitFor();
    expect(await held.getByRole('button', { name: 'Delete' }).count()).toBe(1);
    // Nor does a guest report their own comment, nor answer one that nobody else sees yet.
    expect(await held.getByRole('button', { name: 'Report' }).count()).toBe(0);
    expect(await held.getByRole('button', { name: 'Reply' }).count()).toBe(0);
    // Someone else's comment offers no Delete to a guest.
    const other = page.locator('.comments > li', { hasText: 'Somebody else wrote this' });
    expect(await other.getByRole('button', { name: 'Reply' }).count()).toBe(1);
    expect(await other.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await shot(page, 'guest-own-held-phone');
    await axe(env, page, 'guest own held, phone');

    // Another visitor sees neither the held comment nor its label.
    const stranger = await newPage(env, { lang: 'en', phone: true, dark: true });
    await stranger.page.goto(`${env.base}/s/${sid}`);
    await stranger.page.getByText('Somebody else wrote this').waitFor();
    expect(await stranger.page.getByText('My held words').count()).toBe(0);
    await stranger.context.close();

    // The moderation tab opens on reported comments: with none, it says that held ones wait.
    const staff = await newPage(env, { lang: 'en' });
    await adminPage(env, staff.page);
    await staff.page.goto(`${env.base}/admin/moderation`);
    await staff.page.getByText('Nothing to review.').waitFor();
    // With a reported comment listed too (a browser walk: the held ones went unseen beside it).
    const comments = (await env.t.client().get(`/api/comments?streamer_id=${sid}`)).body as {
      id: number;
      body: string;
    }[];
    const reportedId = comments.find((c) => c.body === 'Somebody else wrote this')!.id;
    expect(
      (await env.t.client().post('/api/reports', { comment_id: reportedId, reason: 'spam' })).status,
    ).toBe(201);
    await staff.page.reload();
    await staff.page.locator('.queue > li', { hasText: 'Somebody else wrote this' }).waitFor();
    await staff.page.getByRole('button', { name: 'Comments are waiting for approval: show them' }).click();
    const heldRow = staff.page.locator('.queue > li', { hasText: 'My held words' });
    await heldRow.getByRole('checkbox').check();
    // Approving is asked first, but not in the red of what hides or deletes (cancelled here).
    await staff.page.locator('.bulk-bar').getByRole('button', { name: 'Approve' }).click();
    const approve = staff.page.getByRole('dialog').getByRole('button', { name: 'Approve' });
    await approve.waitFor();
    expect((await approve.getAttribute('class')) ?? '').not.toContain('danger');
    await staff.page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await staff.context.close();

    // Published now: the guest's next comment, deleted from the same browser.
    await (await env.t.sharedAdmin()).put('/api/settings', { guest_hold: 'none' });
    await page.getByLabel('Comment', { exact: true }).fill('Words I take back');
    await page.getByRole('button', { name: 'Post comment' }).click();
    const mine = page.locator('.comments > li', { hasText: 'Words I take back' });
    await mine.getByRole('button', { name: 'Delete' }).waitFor();
    // A closed question names nobody: no "Delete this comment by ?" for label lookups to find.
    expect(await page.locator('dialog').allTextContents()).not.toContainEqual(
      expect.stringContaining('by ?'),
    );
    expect(await mine.getByRole('button', { name: 'Report' }).count()).toBe(0);
    expect(await other.getByRole('button', { name: 'Report' }).count()).toBe(1);
    await mine.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => mine.count()).toBe(0);
    const list = (await env.t.client().get(`/api/comments?streamer_id=${sid}`)).body as { body: string }[];
    expect(list.map((c) => c.body)).toEqual(['Somebody else wrote this']);
    await context.close();
  });

  it('the privacy page says plainly that the operator is not named, then names them with a contact link', async () => {
    const { page, context } = await newPage(env, { lang: 'cs', phone: true });
    await page.goto(`${env.base}/privacy`);
    await page.getByText('Provozovatel této stránky se tu zatím neuvedl.').waitFor();
    // What follows and push keep, and nothing of e-mail on a site that sends none.
    await page.getByRole('heading', { name: 'Sledování a upozornění' }).waitFor();
    await page
      .getByText(`záznam o každém odeslaném oznámení držíme ${PUSH_LIMITS.sentKeptDays} dní`, {
        exact: false,
      })
      .waitFor();
    expect(await page.getByText(/e-mailovou adresu/).count()).toBe(0);
    await (
      await env.t.sharedAdmin()
    ).put('/api/settings', {
      operator_name: 'Spolek <b>Streamy</b>',
      operator_contact: 'soukromi@example.org',
    });
    await page.reload();
    await page.getByText('Stránku provozuje Spolek <b>Streamy</b>.').waitFor();
    const link = page.getByRole('link', { name: 'soukromi@example.org' });
    expect(await link.getAttribute('href')).toBe('mailto:soukromi@example.org');
    await axe(env, page, 'privacy with operator, phone');
    await context.close();

    const desktop = await newPage(env, { lang: 'en', dark: true });
    await desktop.page.goto(`${env.base}/privacy`);
    await desktop.page.getByText('This site is run by Spolek <b>Streamy</b>.').waitFor();
    await axe(env, desktop.page, 'privacy with operator, desktop dark');
    // A name that ends with its own full stop ends the sentence: one stop, not two.
    await (await env.t.sharedAdmin()).put('/api/settings', { operator_name: 'Komunita Streamerů z.s.' });
    await desktop.page.reload();
    await desktop.page.getByText('This site is run by Komunita Streamerů z.s.', { exact: true }).waitFor();
    await desktop.context.close();
  });
});
