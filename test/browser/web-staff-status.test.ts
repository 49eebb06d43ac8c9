import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.ts';
import { adminPage, axe, newPage, pageAs, runBrowser, shot, useBrowser } from './browser.ts';
import { holdReloads } from './hold.ts';

/**
 * What staff are told where they act (moderation walks): a comment's "Time out or ban" knows a
 * banned author and offers the lift of the ban, not a time-out; the team's "Add member" says
 * who joined which team and keeps the keyboard at the form; "Back" from a review to the queue
 * hands the keyboard to the queue's heading; a lookup that answers after a ban made from the
 * menu does not undo what the menu knows.
 */

let sid = 0;
let kaja: TestUser; // a moderator
let wanda: TestUser; // banned after she wrote
let lena: TestUser; // signed in once, added to a team
let bruno: TestUser; // banned from a menu whose lookup answers late

async function seed(t: TestApp) {
  const admin = await t.sharedAdmin();
  sid = await t.streamer('Status Stage');
  kaja = await t.user({ login: 'kaja', display_name: 'Kája' }, { mod: true });
  wanda = await t.user({ login: 'wanda', display_name: 'Wanda' });
  bruno = await t.user({ login: 'bruno', display_name: 'Bruno' });
  lena = await t.user({ login: 'lena', display_name: 'Lena' });
  for (const [author, body] of [
    [wanda, 'Wanda spoke'],
    [bruno, 'Bruno speaks'],
  ] as const)
    expect((await (await t.signedIn(author)).post('/api/comments', { streamer_id: sid, body })).status).toBe(
      201,
    );
  expect((await admin.put(`/api/users?id=${wanda.id}`, { banned: true })).status).toBe(200);
  expect((await admin.post('/api/rater_groups', { name: 'Morning Crew' })).status).toBe(201);
}

/** What has the keyboard's focus: its tag and its text (or value), or `BODY`. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const at = document.activeElement;
    if (at === null || at === document.body) return 'BODY';
    return `${at.tagName} ${at instanceof HTMLInputElement ? at.id : (at.textContent ?? '').trim()}`;
  });
const isOpen = (menu: Locator) => menu.evaluate((d) => (d as HTMLDetailsElement).open);

describe.runIf(runBrowser(import.meta.url))('what staff are told where they act', () => {
  const env = useBrowser(seed);
  const bannedNow = async () =>
    ((await (await env.t.sharedAdmin()).get(`/api/users?id=${wanda.id}`)).body as { banned: boolean }[])[0]!
      .banned;

  it("a comment's menu says its author is banned and offers the lift, not a time-out, at 390 px and on a desktop", async () => {
    for (const { phone, lang } of [
      { phone: true, lang: 'cs' as const },
      { phone: false, lang: 'en' as const },
    ]) {
      const { page, context } = await pageAs(env, kaja, { phone, lang, dark: phone });
      if (phone) await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${env.base}/s/${sid}`);
      const menuOf = (body: string) =>
        page.locator('.comment', { hasText: body }).locator('details.restrict');
      const summary = phone ? 'Omezit nebo zablokovat' : 'Time out or ban';
      const banned = phone ? 'Zablokován' : 'Banned';
      // An author who is not banned: the time-out and the ban, as before.
      await menuOf('Bruno speaks').getByText(summary).click();
      await menuOf('Bruno speaks')
        .getByRole('button', { name: phone ? '1 den' : '1 day' })
        .waitFor();
      await page.keyboard.press('Escape');

      const menu = menuOf('Wanda spoke');
      await menu.getByText(summary).click();
      const lift = menu.getByRole('checkbox', { name: `${banned}: Wanda` });
      await lift.waitFor();
      expect(await lift.isChecked()).toBe(true);
      expect(await menu.getByRole('button').count()).toBe(0);
      if (phone) {
        const right = await menu.locator('.menu-panel').evaluate((p) => p.getBoundingClientRect().right);
        expect(right).toBeLessThanOrEqual(390);
      }
      await axe(env, page, `a banned author's menu ${lang}`);
      await shot(page, `banned-author-menu-${phone ? 'phone' : 'desktop'}`);

      // The lift, as the users list's checkbox: said, the menu closed onto its button.
      await lift.click();
      await page
        .getByRole('status')
        .filter({ hasText: phone ? 'Uživatel Wanda už není zablokován.' : 'Wanda is no longer banned.' })
        .waitFor();
      await expect.poll(bannedNow).toBe(false);
      expect(await isOpen(menu)).toBe(false);
      // Opened again, the menu offers what an author who is not banned gets.
      await menu.getByText(summary).click();
      await menu.getByRole('button', { name: phone ? '1 den' : '1 day' }).waitFor();
      expect(await menu.getByRole('checkbox').count()).toBe(0);

      // Banned elsewhere meanwhile (another moderator): the menu asks again as it opens.
      await page.keyboard.press('Escape');
      expect(
        (await (await env.t.sharedAdmin()).put(`/api/users?id=${wanda.id}`, { banned: true })).status,
      ).toBe(200);
      await menu.getByText(summary).click();
      await menu.getByRole('checkbox', { name: `${banned}: Wanda` }).waitFor();
      await context.close();
    }
  }, 120_000);

  it("the team's Add member says who joined which team, and keeps the keyboard at the form; Remove says who left", async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.getByRole('link', { name: 'Teams' }).click();
    const card = page.locator('section.team', { has: page.getByRole('heading', { name: 'Morning Crew' }) });
    const status = card.getByRole('status');
    expect(await status.textContent()).toBe('');
    await card.getByLabel('Login').fill(lena.login);
    await card.getByLabel('Login').press('Enter');
    await expect.poll(() => status.textContent()).toBe('Lena was added to “Morning Crew” as rater.');
    await expect.poll(() => card.locator('.members').textContent()).toContain('Lena');
    expect(await card.getByLabel('Login').inputValue()).toBe('');
    const field = await card.getByLabel('Login').getAttribute('id');
    expect(await focused(page)).toBe(`INPUT ${field}`);
    await axe(env, page, 'a member added');

    // Again as owner: asked first, then said as a change of role; the keyboard back at the form.
    await card.getByLabel('Login').fill(lena.login);
    await card.getByLabel('Role').selectOption('owner');
    await card.getByRole('button', { name: 'Add member' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByRole('button', { name: 'Change role' }).click();
    await expect.poll(() => status.textContent()).toBe('Lena is now owner in “Morning Crew”.');
    await expect.poll(() => focused(page)).toBe(`INPUT ${field}`);
    // A refusal takes the place of what was said.
    await card.getByLabel('Login').fill('nobody-here');
    await card.getByLabel('Login').press('Enter');
    await card.locator('.field-error').waitFor();
    expect(await status.textContent()).toBe('');

    // Removed: said in the same line, which takes the keyboard from the Remove button now gone.
    // Said only once the list no longer shows her: the list's reload reaches the page when let go.
    const reload = await holdReloads(page, '/api/rater_groups');
    await card.getByRole('button', { name: 'Remove Lena' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await reload.asked();
    expect(await status.textContent()).toBe('');
    await reload.letGo();
    await expect.poll(() => status.textContent()).toBe('Lena was removed from “Morning Crew”.');
    expect(await card.locator('.members').textContent()).not.toContain('Lena');
    await expect.poll(() => focused(page)).toBe('P Lena was removed from “Morning Crew”.');
    await context.close();
  });

  it("Back from a streamer's review hands the keyboard to the queue's heading", async () => {
    const { page, context } = await pageAs(env, kaja, { lang: 'en' });
    await page.goto(`${env.base}/admin/reviews`);
    await page
      .locator('.review-queue > li', { hasText: 'Status Stage' })
      .getByRole('button', { name: 'Review' })
      .click();
    await page.getByRole('heading', { name: 'Your review of Status Stage' }).waitFor();
    await page.getByRole('button', { name: /Back/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'To review' }).waitFor();
    await expect.poll(() => focused(page)).toBe('H2 To review');
    await context.close();
  });

  it("a lookup answering after the menu's own ban does not bring back the time-outs", async () => {
    const { page, context } = await pageAs(env, kaja, { lang: 'en' });
    await page.goto(`${env.base}/s/${sid}`);
    const menu = page.locator('.comment', { hasText: 'Bruno speaks' }).locator('details.restrict');
    await menu.getByText('Time out or ban').click();
    await menu.getByRole('button', { name: '1 day' }).waitFor();
    await page.keyboard.press('Escape');

    // The next lookups of Bruno are answered by the service at once, but reach the page only when let go.
    const held: (() => Promise<void>)[] = [];
    await page.route(
      (url) => url.pathname === '/api/users' && url.searchParams.get('id') === String(bruno.id),
      async (route) => {
        if (route.request().method() !== 'GET') return route.continue();
        const response = await route.fetch();
        held.push(() => route.fulfill({ response }));
      },
    );
    await menu.getByText('Time out or ban').click();
    await expect.poll(() => held.length).toBe(1);
    await menu.getByRole('button', { name: 'Ban' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ban' }).click();
    await page.getByRole('status').filter({ hasText: 'Bruno is banned.' }).waitFor();
    // The lookup made before the ban arrives now, saying Bruno is not banned.
    await held[0]!();
    // Opened again (its own lookup held): the menu offers the lift of the ban it made.
    await menu.getByText('Time out or ban').click();
    await expect.poll(() => held.length).toBe(2);
    await menu.getByRole('checkbox', { name: 'Banned: Bruno' }).waitFor();
    expect(await menu.getByRole('button', { name: '1 day' }).count()).toBe(0);
    await held[1]!();
    await context.close();
  });
});
