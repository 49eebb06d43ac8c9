import { describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.ts';
import {
  adminPage,
  axe,
  fillScores,
  newPage,
  pageAs,
  runBrowser,
  shot,
  signIn,
  useBrowser,
} from './browser.ts';

/**
 * Issue 44 on the page: the Reviews tab (the queue, a form that shows the others' reviews only
 * once yours is saved, the spread as a chart, publishing), "rated … ago" on a streamer page, and
 * the verified streamer's request for a re-rating, which then leads the queue.
 */

const DAY = 24 * 60 * 60 * 1000;
const R = (v: number) => ({ s: v, g: v, a: v, v, n: v, ns: v, o: v });
let reviewed = 0; // a streamer one moderator has reviewed
let own = 0; // the streamer the provider_a sign-in (twitchdev) speaks for
let kaja: TestUser; // a moderator, reviewing on a phone
let mira: TestUser; // a moderator who reviewed first

async function seed(t: TestApp) {
  const admin = await t.sharedAdmin();
  reviewed = await t.streamer('Review Me');
  const created = await admin.post('/api/streamers?admin=1', {
    name: 'Twitch Dev',
    platform: 'provider_a',
    provider_a: 'twitchdev',
  });
  own = created.body.id as number;
  expect((await admin.put(`/api/streamers?id=${own}`, { r: R(5) })).status).toBe(200);
  kaja = await t.user({ login: 'kaja', display_name: 'Kája' }, { mod: true });
  mira = await t.user({ login: 'mira', display_name: 'Mira' }, { mod: true });
  const first = await (
    await t.signedIn(mira)
  ).put(`/api/reviews?streamer_id=${reviewed}`, {
    r: R(4),
    note: 'Quiet chat, good alerts',
  });
  expect(first.status, first.text).toBe(200);
}

describe.runIf(runBrowser(import.meta.url))('the Reviews tab and re-rating requests', () => {
  const env = useBrowser(seed);

  it('a moderator on a phone reviews blind: the others appear only after saving, with the spread', async () => {
    const { page, context } = await pageAs(env, kaja, { phone: true, lang: 'en' });
    await page.goto(`${env.base}/admin/reviews`);
    await page.getByRole('heading', { name: 'To review' }).waitFor();
    const row = page.locator('.review-queue > li', { hasText: 'Review Me' });
    await expect.poll(() => row.textContent()).toContain('1 review');
    await axe(env, page, 'review queue');
    await row.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('heading', { name: 'Your review of Review Me' }).waitFor();
    await page.getByText('The others’ reviews stay hidden until yours is saved.').waitFor();
    expect(await page.getByText('Quiet chat, good alerts').count()).toBe(0);
    expect(await page.getByText('All reviews').count()).toBe(0);
    // Every score starts empty and is asked for: a forgotten one is not saved as 0.
    const fields = page.locator('.review-form input[type=number]');
    expect(await fields.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(
      Array(7).fill(''),
    );
    await fields.first().fill('8');
    await page.getByRole('button', { name: 'Save my review' }).click();
    expect(await fields.nth(1).evaluate((i) => (i as HTMLInputElement).validity.valueMissing)).toBe(true);
    expect(await page.getByText('All reviews').count()).toBe(0);
    await fillScores(page, 8);
    await page.getByLabel('Note for the staff').fill('Great overlay');
    // What was typed and not saved comes back after a reload (a week's walk), and only for this streamer.
    await page.reload();
    await row.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('heading', { name: 'Your review of Review Me' }).waitFor();
    await expect.poll(() => page.getByLabel('Note for the staff').inputValue()).toBe('Great overlay');
    expect(await fields.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(
      Array(7).fill('8'),
    );
    await page.getByRole('button', { name: 'Save my review' }).click();
    await page.getByRole('heading', { name: 'All reviews (2)' }).waitFor();
    await page.getByText('Quiet chat, good alerts').waitFor();
    await expect.poll(() => page.locator('svg.review-spread circle').count()).toBe(2);
    // A moderator does not publish: that is the administrator's.
    expect(await page.getByRole('button', { name: 'Publish the median as the rating' }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await axe(env, page, 'review form after saving');
    await shot(page, 'reviews-phone');
    await context.close();
  });

  it('a moderator goes back to a streamer they reviewed, which left their queue, and changes the review', async () => {
    const { page, context } = await pageAs(env, kaja, { lang: 'en' });
    await page.goto(`${env.base}/admin/reviews`);
    await page.getByRole('heading', { name: 'To review' }).waitFor();
    expect(await page.locator('.review-queue > li', { hasText: 'Review Me' }).count()).toBe(0);
    await page.getByLabel('Any streamer, also one you have reviewed').selectOption({ label: 'Review Me' });
    await page.locator('form.review-any').getByRole('button', { name: 'Review' }).click();
    await page.getByRole('heading', { name: 'All reviews (2)' }).waitFor();
    const note = page.getByLabel('Note for the staff');
    expect(await note.inputValue()).toBe('Great overlay');
    await note.fill('Great overlay, loud music');
    await page.getByRole('button', { name: 'Save my review' }).click();
    await expect
      .poll(async () => {
        const mine = await env.t.signedIn(kaja);
        return (await mine.get(`/api/reviews?streamer_id=${reviewed}`)).body.mine?.note;
      })
      .toBe('Great overlay, loud music');
    await axe(env, page, 'review picked by name');
    await shot(page, 'reviews-picked');
    await context.close();
  });

  it('the verified streamer asks for a re-rating; the administrator sees it first, reviews and publishes', async () => {
    // The last rating was 100 days ago: a request may come after 90.
    env.t.clock.advance(100 * DAY);
    const streamer = await newPage(env, { lang: 'en' });
    await signIn(env, streamer.page, 'provider_a');
    await streamer.page.goto(`${env.base}/s/${own}`);
    // Rated a moment ago by the browser's clock (the app's moved on; the page reads its own).
    await streamer.page.locator('time', { hasText: /^Rated / }).waitFor();
    const form = streamer.page.locator('section.rerate');
    await form.getByRole('heading', { name: 'Ask for a re-rating' }).waitFor();
    const send = form.getByRole('button', { name: 'Ask for a re-rating' });
    await form.getByLabel(/What changed/).fill('too short');
    expect(await send.isDisabled()).toBe(true);
    await form.getByLabel(/What changed/).fill('New overlay, new schedule and a new game.');
    // Written, then the page reloaded before sending: the reason is still there.
    await streamer.page.reload();
    await expect
      .poll(() => form.getByLabel(/What changed/).inputValue())
      .toBe('New overlay, new schedule and a new game.');
    await send.focus();
    await streamer.page.keyboard.press('Enter');
    const sent = form.getByRole('status').getByText('Sent. The staff will look at your channel again.');
    await sent.waitFor();
    // The keyboard stays where the form was, on what it says, not at the page's start.
    await expect.poll(() => sent.evaluate((p) => p === document.activeElement)).toBe(true);
    expect(
      await streamer.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:'))),
    ).toEqual([]);
    await axe(env, streamer.page, 'streamer page after a re-rating request');
    await streamer.context.close();

    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.goto(`${env.base}/admin/reviews`);
    const first = page.locator('.review-queue > li').first();
    await expect.poll(() => first.textContent()).toContain('Twitch Dev');
    expect(await first.textContent()).toContain('asks for a re-rating');
    await first.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('heading', { name: 'Your review of Twitch Dev' }).waitFor();
    await fillScores(page, 7);
    await page.getByRole('button', { name: 'Save my review' }).click();
    await page.getByRole('heading', { name: 'All reviews (1)' }).waitFor();
    // Another moderator saves a review while the page shows one: the question asks of both.
    const late = await (
      await env.t.signedIn(mira)
    ).put(`/api/reviews?streamer_id=${own}`, { r: R(9), note: '' });
    expect(late.status, late.text).toBe(200);
    // The spread's chart keeps its numbers to the page's size at a desktop's width (a week's walk).
    const chart = await page.locator('svg.review-spread').boundingBox();
    expect(chart?.width).toBeLessThanOrEqual(28 * 16);
    await page.getByRole('button', { name: 'Publish the median as the rating' }).click();
    // Asked in the site's own dialog, whose confirming button is not the red of a deletion.
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText('Publish the median, 56 / 70, as the rating of Twitch Dev? The reviews are then cleared.')
      .waitFor();
    await page.getByRole('heading', { name: 'All reviews (2)' }).waitFor();
    const yes = dialog.getByRole('button', { name: 'Publish the median as the rating' });
    expect((await yes.getAttribute('class')) ?? '').not.toContain('danger');
    await yes.click();
    await page.getByRole('heading', { name: 'To review' }).waitFor();
    // Said back in the queue: what was published, and that the reward is left as it was (a walk).
    await page
      .getByRole('status')
      .getByText('Published as the rating of Twitch Dev: 56/70. Its reward stays as it was.')
      .waitFor();
    const item = (await env.t.client().get(`/api/streamers?id=${own}`)).body as { r: unknown };
    expect(item.r).toEqual(R(8));
    await shot(page, 'reviews-published');
    // A streamer others reviewed: the administrator is told how to publish without scoring.
    await page
      .locator('.review-queue > li', { hasText: 'Review Me' })
      .getByRole('button', { name: 'Review' })
      .click();
    await page.getByRole('heading', { name: 'Your review of Review Me' }).waitFor();
    await page.getByText('To publish the others’ reviews without scoring, abstain first.').waitFor();
    await context.close();
  });
});
