import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.ts';
import { adminPage, newPage, pageAs, runBrowser, useBrowser } from './browser.ts';
import { holdReloads } from './hold.ts';

/**
 * A community's week in a browser (stop h1): a form's button that was disabled while its request
 * ran dropped the keyboard's focus to the page's start (the streamer's reply, their schedule, a
 * staff rating, a suggestion); the moderation queue's "Waiting: show" and a staff review's
 * Review left it there too, and creating or deleting a team said nothing.
 */
let kick = 0;
let speaker: TestUser;
let mod: TestUser;

async function seed(t: TestApp) {
  const admin = await t.sharedAdmin();
  const made = await admin.post('/api/streamers?admin=1', {
    name: 'Busy Kick',
    platform: 'provider_b',
    kick_name: 'busykick',
  });
  expect(made.status, made.text).toBe(201);
  kick = made.body.id;
  const r = { s: 7, g: 7, a: 7, v: 7, n: 7, ns: 7, o: 7 };
  expect((await admin.put(`/api/streamers?id=${kick}`, { r, kick_name: 'busykick' })).status).toBe(200);
  speaker = await t.user({ provider: 'provider_b', login: 'busykick', display_name: 'Busy Kick' });
  mod = await t.user({ login: 'queuemod', display_name: 'Queue Mod' }, { mod: true });
  // A held comment and no report: the reported view offers "Waiting: show".
  expect((await admin.put('/api/settings', { hold_words: ['scam'] })).status).toBe(200);
  const held = await t.client().post('/api/comments', { streamer_id: kick, body: 'A scam', author: 'Fan' });
  expect(held.status, held.text).toBe(201);
  const plain = await t
    .client()
    .post('/api/comments', { streamer_id: kick, body: 'Plain words', author: 'Fan' });
  expect(plain.status, plain.text).toBe(201);
  plainId = plain.body.id;
}
let plainId = 0;

const isFocused = (locator: Locator) => locator.evaluate((e) => e === document.activeElement);

/**
 * Presses Enter on `button` with its write held until the button is seen busy: it keeps the
 * keyboard then, and after the write, beside the `done` status.
 */
async function keepsFocus(page: Page, button: Locator, done: string) {
  const pressed = await keepsFocusWhileBusy(page, button, () =>
    page.getByRole('status').filter({ hasText: done }).waitFor(),
  );
  expect(await pressed.evaluate((e) => e === document.activeElement)).toBe(true);
}

/**
 * Presses Enter on `button` with its write held until the button is seen busy, and checks it
 * keeps the keyboard meanwhile; then lets the write go and waits for `after`.
 */
async function keepsFocusWhileBusy(page: Page, button: Locator, after: () => Promise<unknown>) {
  let release = () => {};
  const held = new Promise<void>((go) => (release = go));
  await page.route(
    (url) => url.pathname.startsWith('/api/'),
    async (route) => (route.request().method() === 'GET' ? route.continue() : (await held, route.continue())),
  );
  // The element itself: its name says "Saving…" while busy.
  const pressed = await button.elementHandle();
  await pressed.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => pressed.getAttribute('aria-disabled')).toBe('true');
  expect(await pressed.evaluate((e) => e === document.activeElement)).toBe(true);
  release();
  await after();
  await page.unrouteAll();
  return pressed;
}

describe.runIf(runBrowser(import.meta.url))("a busy form's button keeps the keyboard", () => {
  const env = useBrowser(seed);

  it("the streamer's reply and schedule keep the keyboard on their Save", async () => {
    const { page, context } = await pageAs(env, speaker, { lang: 'en', phone: true });
    await page.goto(`${env.base}/s/${kick}`);
    await page.getByLabel('Your reply to the rating').fill('Thanks, the alerts are new since');
    await keepsFocus(page, page.getByRole('button', { name: 'Save the reply' }), 'Your reply is saved.');
    const editor = page.locator('section.schedule-editor');
    await editor.getByRole('heading', { name: 'Stream schedule' }).waitFor();
    await keepsFocus(
      page,
      editor.getByRole('button', { name: 'Save the schedule' }),
      'The schedule is saved.',
    );
    await context.close();
  });

  it("an edit's Save keeps the keyboard, then hands it to Edit; a report's Send keeps it, then the comment's mark", async () => {
    const { page, context } = await pageAs(env, mod, { lang: 'en', phone: true });
    await page.goto(`${env.base}/s/${kick}`);
    await page.getByLabel('Comment', { exact: true }).fill('First words');
    await page.getByRole('button', { name: 'Post comment' }).click();
    const mine = page.locator('.comments > li', { hasText: 'First words' });
    await mine.getByRole('button', { name: 'Edit' }).click();
    const editor = page.locator('.comments > li', { has: page.locator('textarea') });
    await editor.locator('textarea').fill('Second words');
    const edit = page
      .locator('.comments > li', { hasText: 'Second words' })
      .getByRole('button', { name: 'Edit' });
    await keepsFocusWhileBusy(page, editor.getByRole('button', { name: 'Save' }), () =>
      expect.poll(() => isFocused(edit)).toBe(true),
    );
    const other = page.locator('.comments > li', { hasText: 'Plain words' });
    await other.getByRole('button', { name: 'Report' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Spam').check();
    await keepsFocusWhileBusy(page, dialog.getByRole('button', { name: 'Send report' }), () =>
      expect.poll(() => isFocused(page.locator(`#reported-${plainId}`))).toBe(true),
    );
    await context.close();
  });

  it("the staff's rating keeps the keyboard on Save rating", async () => {
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.goto(`${env.base}/s/${kick}`);
    await keepsFocus(page, page.getByRole('button', { name: 'Save rating' }), 'Rating saved.');
    await context.close();
  });

  it('a suggestion keeps the keyboard on Send suggestion', async () => {
    const { page, context } = await newPage(env, { lang: 'en', phone: true });
    await page.goto(`${env.base}/suggest`);
    await page.getByLabel('Streamer name').fill('Quiet Newcomer');
    await keepsFocus(page, page.getByRole('button', { name: 'Send suggestion' }), 'Quiet Newcomer');
    await context.close();
  });

  it('creating, renaming and deleting a team each say so once the list shows it; the keyboard waits at the emptied name, then at what was said', async () => {
    const { page, context } = await newPage(env, { lang: 'en', phone: true });
    await adminPage(env, page);
    await page.goto(`${env.base}/admin/teams`);
    await page.getByLabel('Team name').first().fill('Night Owls');
    // Each is said once the list's reload shows it: the reload is held, nothing is said yet.
    let reload = await holdReloads(page, '/api/rater_groups');
    await page.getByRole('button', { name: 'Add', exact: true }).focus();
    await page.keyboard.press('Enter');
    await reload.asked();
    const created = page.getByRole('status').filter({ hasText: 'Team “Night Owls” is created.' });
    expect(await created.count()).toBe(0);
    await reload.letGo();
    await created.waitFor();
    await page.getByRole('heading', { name: 'Night Owls' }).waitFor();
    expect(await isFocused(page.locator('#team-name'))).toBe(true);
    expect(await page.locator('#team-name').inputValue()).toBe('');
    const team = page.locator('section.team', { has: page.getByRole('heading', { name: 'Night Owls' }) });
    reload = await holdReloads(page, '/api/rater_groups');
    await team.getByLabel('Team name').fill('Night Owls Club');
    await team.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await reload.asked();
    expect(await team.getByText('Saved.').count()).toBe(0);
    await reload.letGo();
    await team.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    // Each outcome is said alone: the creation's line went with the next action (a week's walk).
    expect(await created.count()).toBe(0);
    expect(await team.getByRole('heading', { level: 2 }).textContent()).toBe('Night Owls Club');
    await team.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    reload = await holdReloads(page, '/api/rater_groups');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    await reload.asked();
    const said = page.getByRole('status').filter({ hasText: 'Team “Night Owls Club” is deleted.' });
    expect(await said.count()).toBe(0);
    await reload.letGo();
    await expect.poll(() => isFocused(said)).toBe(true);
    expect(await page.getByRole('heading', { name: 'Night Owls' }).count()).toBe(0);
    await context.close();
  });

  it("a staff review's Review hands the keyboard to the form's heading, from the queue or by name", async () => {
    const { page, context } = await pageAs(env, mod, { lang: 'en', phone: true });
    await page.goto(`${env.base}/admin/reviews`);
    const heading = page.getByRole('heading', { name: 'Your review of Busy Kick' });
    await page
      .locator('.review-queue > li', { hasText: 'Busy Kick' })
      .getByRole('button', { name: 'Review' })
      .focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(heading)).toBe(true);
    await page.getByRole('button', { name: /Back to the queue/ }).click();
    await page.getByLabel(/Any streamer/).selectOption({ label: 'Busy Kick' });
    await page.locator('form.review-any').getByRole('button', { name: 'Review' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(heading)).toBe(true);
    await context.close();
  });

  it('"Waiting: show" in the queue hands the keyboard to the first waiting comment', async () => {
    const { page, context } = await pageAs(env, mod, { lang: 'en', phone: true });
    await page.goto(`${env.base}/admin/moderation`);
    const show = page.getByRole('button', { name: /waiting for approval/ });
    await show.focus();
    await page.keyboard.press('Enter');
    const row = page.locator('.queue > li', { hasText: 'A scam' });
    await expect.poll(() => isFocused(row)).toBe(true);
    expect(await page.getByLabel(/^Show/).inputValue()).toBe('pending');
    await context.close();
  });
});
