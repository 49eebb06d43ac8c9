import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.ts';
import { adminPage, axe, fillScores, newPage, pageAs, runBrowser, useBrowser } from './browser.ts';

/**
 * The keyboard's place after an action (a keyboard walk): what held the focus is gone or drawn
 * anew, and the focus must land on what the user expects next, never on the page's start.
 */

let sid = 0;
let kaja: TestUser; // a moderator who reviews
let bruno: TestUser; // timed out, then banned
let vera: TestUser; // banned from the queue's row menu
const authors: Record<string, TestUser> = {};

async function seed(t: TestApp) {
  const admin = await t.sharedAdmin();
  expect((await admin.put('/api/settings', { hold_words: ['scam'] })).status).toBe(200);
  sid = await t.streamer('Focus Stage');
  kaja = await t.user({ login: 'kaja', display_name: 'Kája' }, { mod: true });
  bruno = await t.user({ login: 'bruno', display_name: 'Bruno' });
  for (const [login, body] of [
    ['eva', 'A scam, first'],
    ['olga', 'A scam, second'],
  ] as const) {
    const author = await t.signedIn(await t.user({ login, display_name: login }));
    expect((await author.post('/api/comments', { streamer_id: sid, body })).status).toBe(201);
  }
  const said = await (
    await t.signedIn(bruno)
  ).post('/api/comments', { streamer_id: sid, body: 'Plain words' });
  expect(said.status).toBe(201);
  vera = await t.user({ login: 'vera', display_name: 'Vera' });
  expect(
    (await (await t.signedIn(vera)).post('/api/comments', { streamer_id: sid, body: 'Vera speaks' })).status,
  ).toBe(201);
  // Wanda was banned after she wrote: the queue lists her comment, and nothing restricts her more.
  const wanda = await t.user({ login: 'wanda', display_name: 'Wanda' });
  expect(
    (await (await t.signedIn(wanda)).post('/api/comments', { streamer_id: sid, body: 'Wanda spoke' })).status,
  ).toBe(201);
  expect((await admin.put(`/api/users?id=${wanda.id}`, { banned: true })).status).toBe(200);
  for (const [login, body] of [
    ['emil', 'Emil on the page'],
    ['filip', 'Filip to hide'],
  ] as const) {
    authors[login] = await t.user({ login, display_name: login });
    const author = await t.signedIn(authors[login]);
    expect((await author.post('/api/comments', { streamer_id: sid, body })).status).toBe(201);
  }
  for (const body of ['Guest one', 'Guest two'])
    expect((await t.client().post('/api/comments', { streamer_id: sid, body, author: 'Fan' })).status).toBe(
      201,
    );
}

/** What has the keyboard's focus: its tag and its text, or `BODY` when the focus fell to the page's start. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const at = document.activeElement;
    return at === null || at === document.body ? 'BODY' : `${at.tagName} ${(at.textContent ?? '').trim()}`;
  });
const isFocused = (locator: Locator) => locator.evaluate((e) => e === document.activeElement);

/** Presses `key` on `control`, then confirms the dialog it opens with its `label` button. */
async function confirmed(page: Page, control: Locator, label: string, key = 'Enter') {
  await control.focus();
  await page.keyboard.press(key);
  const yes = page.getByRole('dialog').getByRole('button', { name: label });
  await yes.focus();
  await page.keyboard.press('Enter');
}

describe.runIf(runBrowser(import.meta.url))("the keyboard's place after an action", () => {
  const env = useBrowser(seed);

  it('the moderation queue: the next comment after one, the empty queue after the last, the status after many and after Undo', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.goto(`${env.base}/admin/moderation`);
    await page.locator('.section-head').getByLabel('Show').selectOption('pending');
    const rows = page.locator('.queue > li');
    await expect.poll(() => rows.count()).toBe(2);
    const approve = (row: Locator) =>
      row.getByRole('group', { name: /^This comment by/ }).getByRole('button', { name: 'Approve' });
    await confirmed(page, approve(rows.filter({ hasText: 'A scam, second' })), 'Approve');
    await expect.poll(() => rows.count()).toBe(1);
    await expect.poll(() => focused(page)).toMatch(/^LI .*A scam, first/);
    await confirmed(page, approve(rows.first()), 'Approve');
    await expect.poll(() => focused(page)).toBe('P Nothing to review.');
    await axe(env, page, 'the queue emptied by the keyboard');

    await page.locator('.section-head').getByLabel('Show').selectOption('recent');
    const guests = rows.filter({ hasText: /Guest (one|two)/ });
    await expect.poll(() => guests.count()).toBe(2);
    for (const box of await guests.getByRole('checkbox').all()) await box.check();
    const bar = page.getByRole('group', { name: 'With the selected comments' });
    await confirmed(page, bar.getByRole('button', { name: 'Hide' }), 'Hide');
    await expect.poll(() => focused(page)).toBe('P Comments hidden: 2.');

    const one = rows.filter({ hasText: 'Guest one' });
    await one.getByLabel(/All \d+ from this address/).selectOption('show');
    await confirmed(page, one.getByRole('button', { name: 'Apply' }), 'Show');
    await page.getByText(/Done: comments from this address changed: 2\./).waitFor();
    // The row stays, and so does the keyboard, on Apply.
    await expect.poll(() => focused(page)).toBe('BUTTON Apply');
    const undo = page.getByRole('status').getByRole('button', { name: 'Undo' });
    await undo.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('P Undone.');
    await context.close();
  });

  it("the users list: a time-out leaves the keyboard on the row's menu; a banned user is offered no time-out", async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.getByRole('link', { name: 'Users' }).click();
    const row = page.locator('.admin-row', { hasText: 'Bruno' });
    const menu = row.getByLabel('Time out: Bruno');
    await menu.focus();
    await page.keyboard.press('Enter');
    await row.getByRole('button', { name: '1 hour' }).focus();
    await page.keyboard.press('Enter');
    await row
      .getByText(/Timed out until/)
      .first()
      .waitFor();
    await expect.poll(() => isFocused(menu)).toBe(true);

    const banned = row.getByLabel('Banned: Bruno');
    await confirmed(page, banned, 'Ban', ' ');
    await page.getByText('Bruno is banned.').waitFor();
    await expect.poll(() => isFocused(banned)).toBe(true);
    // The service takes a time-out of a banned user, which changes nothing: not offered.
    await expect.poll(() => menu.count()).toBe(0);
    await axe(env, page, 'a banned user in the users list');
    await context.close();
  });

  it("the queue: a banned author's row offers no time-out; a ban from the row's menu leaves the keyboard on what it says", async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.goto(`${env.base}/admin/moderation`);
    await page.locator('.section-head').getByLabel('Show').selectOption('recent');
    const rows = page.locator('.queue > li');
    const veras = rows.filter({ hasText: 'Vera speaks' });
    const menuOf = (row: Locator) => row.getByText('Time out or ban');
    await expect.poll(() => menuOf(veras).count()).toBe(1);
    // The service takes a time-out of a banned user, which changes nothing: not offered, as in the users list.
    expect(await rows.filter({ hasText: 'Wanda spoke' }).count()).toBe(1);
    expect(await menuOf(rows.filter({ hasText: 'Wanda spoke' })).count()).toBe(0);

    await menuOf(veras).click();
    await veras.getByRole('button', { name: 'Ban user' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ban user' }).click();
    await page.getByRole('status').getByText('Vera is banned.').waitFor();
    await expect.poll(() => menuOf(veras).count()).toBe(0);
    expect(await veras.count()).toBe(1);
    await expect.poll(() => focused(page)).toBe('P Vera is banned.');
    await axe(env, page, "a banned author's row in the queue");
    await context.close();
  });

  it("a ban from a comment's menu on its streamer's page leaves the keyboard on the menu, never the page's start", async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.goto(`${env.base}/s/${sid}`);
    const comment = page.locator('.comments > li', { hasText: 'Emil on the page' });
    const its = comment.getByLabel('Time out or ban: emil');
    await its.focus();
    await page.keyboard.press('Enter');
    await confirmed(page, comment.getByRole('button', { name: 'Ban user' }), 'Ban user');
    await comment.getByText('emil is banned.').waitFor();
    await expect.poll(() => isFocused(its)).toBe(true);
    await context.close();
  });

  it('hiding a comment (staff, or its author) keeps the keyboard on its Show again, and showing it on its Hide', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.goto(`${env.base}/s/${sid}`);
    const comment = page.locator('.comments > li', { hasText: 'Filip to hide' });
    await comment.getByRole('button', { name: 'Hide' }).focus();
    await page.keyboard.press('Enter');
    await comment.getByText('hidden', { exact: true }).waitFor();
    await expect.poll(() => focused(page)).toBe('BUTTON Show again');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('BUTTON Hide');
    await context.close();

    // Its author hides their own after a question, and it stays in their list, marked hidden
    // (on a rated streamer's page: an unrated one's shows its comments to staff alone).
    const rated = await env.t.streamer('Rated Stage', { s: 6, g: 6 });
    const filip = await env.t.signedIn(authors.filip!);
    expect(
      (await filip.post('/api/comments', { streamer_id: rated, body: 'Filip hides his own' })).status,
    ).toBe(201);
    const own = await pageAs(env, authors.filip!, { lang: 'en' });
    await own.page.goto(`${env.base}/s/${rated}`);
    const theirs = own.page.locator('.comments > li', { hasText: 'Filip hides his own' });
    await confirmed(own.page, theirs.getByRole('button', { name: 'Hide' }), 'Hide');
    await expect.poll(() => focused(own.page)).toBe('BUTTON Show again');
    await own.context.close();
  });

  it("pinning keeps the keyboard on the comment's Unpin, wherever the comment moved", async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.goto(`${env.base}/s/${sid}`);
    const plain = page.locator('.comments > li', { hasText: 'Plain words' });
    await plain.getByRole('button', { name: 'Pin' }).focus();
    await page.keyboard.press('Enter');
    const unpin = plain.getByRole('button', { name: 'Unpin' });
    await expect.poll(() => unpin.count()).toBe(1);
    await expect.poll(() => isFocused(unpin)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(plain.getByRole('button', { name: 'Pin' }))).toBe(true);
    await context.close();
  });

  it('saving a staff review keeps the keyboard on Save, the others’ reviews after it', async () => {
    const { page, context } = await pageAs(env, kaja, { lang: 'en' });
    await page.goto(`${env.base}/admin/reviews`);
    await page
      .locator('.review-queue > li', { hasText: 'Focus Stage' })
      .getByRole('button', { name: 'Review' })
      .click();
    await fillScores(page, 6);
    const save = page.getByRole('button', { name: 'Save my review' });
    await save.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'All reviews (1)' }).waitFor();
    await page.getByText('Saved', { exact: false }).first().waitFor();
    await expect.poll(() => isFocused(save)).toBe(true);
    await context.close();
  });

  it('publishing the reviews keeps the keyboard on Publish while it runs, then on what was published', async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.goto(`${env.base}/admin/reviews`);
    await page
      .locator('.review-queue > li', { hasText: 'Focus Stage' })
      .getByRole('button', { name: 'Review' })
      .click();
    // The administrator abstains: the others' reviews, and Publish, are shown after it.
    await page.getByLabel(/I abstain/).check();
    await page.getByRole('button', { name: 'Save my review' }).click();
    // The publish is held until the button has been seen busy: it keeps the keyboard meanwhile.
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    await page.route(
      (url) => url.pathname === '/api/reviews' && url.searchParams.get('publish') === '1',
      async (route) => (await held, route.continue()),
    );
    const publish = page.getByRole('button', { name: 'Publish the median as the rating' }).first();
    await confirmed(page, publish, 'Publish the median as the rating');
    await expect.poll(() => publish.getAttribute('aria-disabled')).toBe('true');
    expect(await isFocused(publish)).toBe(true);
    release();
    await expect.poll(() => focused(page)).toMatch(/^P Published as the rating of Focus Stage/);
    await context.close();
  });
});
