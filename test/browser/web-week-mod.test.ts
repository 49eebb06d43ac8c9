import { describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, type TestApp, type TestUser } from '../helpers/app.ts';
import { adminPage, axe, newPage, pageAs, runBrowser, useBrowser } from './browser.ts';

/** Stop 96, a moderator's week: what the page got wrong on the way. */

let sid = 0;
let eva: TestUser; // comments
let tomas: TestUser; // comments a lot, and is timed out from far down the queue

async function seed(t: TestApp) {
  sid = await t.streamer('Week Stage', { s: 7, g: 7 });
  eva = await t.user({ login: 'eva', display_name: 'Eva' });
  const res = await (
    await t.signedIn(eva)
  ).post('/api/comments', { streamer_id: sid, body: 'First thought' });
  expect(res.status).toBe(201);
  tomas = await t.user({ login: 'tomas', display_name: 'Tomas' });
  const chatty = await t.signedIn(tomas);
  const busy = await t.streamer('Busy Stage', { s: 6, g: 6 });
  for (let i = 1; i <= 12; i++) {
    const posted = await chatty.post('/api/comments', { streamer_id: busy, body: `Tomas line ${i}` });
    expect(posted.status, posted.text).toBe(201);
  }
}

describe.runIf(runBrowser(import.meta.url))("stop 96: a moderator's week", () => {
  const env = useBrowser(seed);

  it('Escape gives an edit up as Cancel does, the keyboard back on Edit', async () => {
    const { page, context } = await pageAs(env, eva, { lang: 'en' });
    await page.goto(`${env.base}/s/${sid}`);
    const mine = page.locator('.comments > li', { hasText: 'First thought' });
    await mine.getByRole('button', { name: 'Edit' }).click();
    // Its text is the box's value, not the item's: the item is the one with the box.
    const area = page.locator('.comments > li textarea');
    await expect.poll(() => area.evaluate((a) => a === document.activeElement)).toBe(true);
    await area.fill('Second thought');
    await page.keyboard.press('Escape');
    await expect.poll(() => area.count()).toBe(0);
    await expect
      .poll(() => mine.getByRole('button', { name: 'Edit' }).evaluate((b) => b === document.activeElement))
      .toBe(true);
    expect(await mine.locator('.comment-body').textContent()).toContain('First thought');
    await axe(env, page, 'edit given up');
    const list = (await env.t.client().get(`/api/comments?streamer_id=${sid}`)).body as { body: string }[];
    expect(list.map((c) => c.body)).toEqual(['First thought']);
    await context.close();
  });

  it("after the administrator's login the keyboard is on the administration's heading, not the page's start", async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await page.goto(`${env.base}/admin`);
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: 'Administration' });
    await heading.waitFor();
    await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
    await context.close();
  });

  it("at 390 px the users list's Time out menu stays on the screen", async () => {
    const { page, context } = await newPage(env, { lang: 'en', phone: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await adminPage(env, page);
    await page.getByRole('link', { name: 'Users' }).click();
    const row = page.locator('.admin-row', { hasText: 'Eva' });
    await row.getByLabel('Time out: Eva').click();
    const panel = row.locator('.menu-panel');
    await panel.getByRole('button', { name: '1 hour' }).waitFor();
    const right = async () =>
      ((await panel.boundingBox())?.x ?? 0) + ((await panel.boundingBox())?.width ?? 0);
    await expect.poll(right).toBeLessThanOrEqual(390);
    expect((await panel.boundingBox())!.x).toBeGreaterThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await axe(env, page, "users list's time-out menu, 390 px");
    await context.close();
  });

  it('on a phone, a time-out from far down the queue is said on the screen, and the unused bulk bar covers nothing', async () => {
    const { page, context } = await newPage(env, { lang: 'en', phone: true });
    await adminPage(env, page);
    await page.goto(`${env.base}/admin/moderation`);
    await page.locator('.section-head').getByLabel('Show').selectOption('recent');
    const rows = page.locator('.queue > li');
    const oldest = rows.filter({ hasText: 'Tomas line 2' }); // the newest first: 'line 2' is near the end
    await expect.poll(() => oldest.count()).toBe(1);
    await oldest.scrollIntoViewIfNeeded();
    const height = page.viewportSize()!.height;
    // Nothing selected: the bar scrolled away with the queue's top, and covers no item.
    const bar = page.locator('.bulk-bar');
    expect((await bar.boundingBox())!.y + (await bar.boundingBox())!.height).toBeLessThanOrEqual(0);
    await oldest.getByText('Time out or ban').click();
    await oldest.getByRole('button', { name: '1 hour' }).click();
    const said = page.getByRole('status').filter({ hasText: /timed out until/i });
    await said.waitFor();
    // Said where the moderator is, not at the top of the queue, screens above.
    const box = (await said.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    // Selecting brings the bulk actions into sight too.
    await oldest.getByRole('checkbox').check();
    const bulk = (await bar.boundingBox())!;
    expect(bulk.y).toBeGreaterThanOrEqual(0);
    expect(bulk.y + bulk.height).toBeLessThanOrEqual(height);
    await axe(env, page, 'the queue on a phone, after a time-out');
    await context.close();
  });

  it("the held comments' queue is read again when its tab comes back into view, unless a comment is selected", async () => {
    const admin = await env.t.sharedAdmin();
    expect((await admin.put('/api/settings', { guest_hold: 'links' })).status).toBe(200);
    const { page, context } = await newPage(env, { lang: 'en' });
    try {
      await adminPage(env, page);
      await page.goto(`${env.base}/admin/moderation`);
      await page.locator('.section-head').getByLabel('Show').selectOption('pending');
      await page.locator('.queue-empty').waitFor();
      const hold = async (body: string) => {
        const posted = await env.t
          .client()
          .post('/api/comments', { streamer_id: sid, body, author: 'Linker' });
        expect(posted.body.pending, posted.text).toBe(true);
      };
      const back = async () => {
        const asked = page.waitForResponse((r) => r.url().includes('/api/moderation/comments?'));
        await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
        await asked;
      };
      await hold('Cheap views at https://views.example');
      await back();
      const rows = page.locator('.queue > li');
      await rows.filter({ hasText: 'views.example' }).waitFor();
      // A comment selected: the list stays as it is under the moderator's hand.
      await rows.first().getByRole('checkbox').check();
      await hold('More at https://more.example');
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await page.waitForLoadState('networkidle');
      expect(await rows.count()).toBe(1);
    } finally {
      await context.close();
      expect((await admin.put('/api/settings', { guest_hold: 'none' })).status).toBe(200);
    }
  });

  it('a rater in two teams: two community forms on /team, no id twice, each form named by its team', async () => {
    const admin = await env.t.sharedAdmin();
    const rita = await env.t.user({ login: 'rita', display_name: 'Rita' });
    for (const name of ['Dawn Crew', 'Dusk Crew']) {
      const streamer_id = await env.t.streamer(`${name} Stage`);
      const team = await admin.post('/api/rater_groups', { name, streamer_id });
      const added = await admin.post('/api/rater_groups?members=1', {
        group_id: team.body.id,
        login: 'rita',
      });
      expect(added.status).toBe(200);
    }
    const { page, context } = await pageAs(env, rita, { lang: 'en' });
    await page.goto(`${env.base}/team`);
    await expect.poll(() => page.getByRole('button', { name: 'Save my rating' }).count()).toBe(2);
    const twice = await page.evaluate(() => {
      const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
      return ids.filter((id, i) => ids.indexOf(id) !== i);
    });
    expect(twice).toEqual([]);
    // Each label's field is its own form's.
    for (const team of ['Dawn Crew', 'Dusk Crew']) {
      const form = page.getByRole('form', { name: new RegExp(team) });
      await form.getByLabel('Statistics', { exact: true }).fill('4');
      expect(await form.locator('input').first().inputValue()).toBe('4');
    }
    await axe(env, page, 'a rater in two teams');
    await context.close();
  });

  it('a banned user reads the notice in place of the comment form for the rest of the page', async () => {
    const bruno = await env.t.user({ login: 'bruno', display_name: 'Bruno' }, { banned: true });
    const { page, context } = await pageAs(env, bruno, { lang: 'en' });
    await page.goto(`${env.base}/s/${sid}`);
    const notice = page.getByText('Your account is banned: you cannot comment, reply or like here.');
    await notice.waitFor();
    // The service says "banned" once; the page asks again when its tab comes back into view.
    const asked = page.waitForResponse((r) => r.url().endsWith('/api/oauth/me'));
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    expect((await (await asked).json()).banned).toBe(false);
    await page.waitForLoadState('networkidle');
    expect(await notice.count()).toBe(1);
    expect(await page.getByLabel('Name').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Post comment' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Reply' }).count()).toBe(0);
    await axe(env, page, 'a banned user');
    await context.close();
  });
});
