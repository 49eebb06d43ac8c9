import { describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.ts';
import { axe, newPage, runBrowser, shot, useBrowser, pageAs } from './browser.ts';

/**
 * Issue 29 on the page: a moderator times out a commenter from the streamer page in two clicks
 * (the menu loads for staff only), and the timed-out user reads until when, in their language,
 * where a bare refusal would have been.
 */

let sid = 0;
let kaja: TestUser; // a moderator
let spammer: TestUser;
let long = 0; // a streamer whose comments run over several screens

async function seed(t: TestApp) {
  sid = await t.streamer('Open Stream', { s: 8, g: 7 });
  kaja = await t.user({ login: 'kaja', display_name: 'Kája' }, { mod: true });
  spammer = await t.user({ login: 'spammer', display_name: 'Spammer' });
  const res = await (
    await t.signedIn(spammer)
  ).post('/api/comments', { streamer_id: sid, body: 'Buy followers' });
  expect(res.status).toBe(201);
  expect(
    (await (await t.signedIn(kaja)).post('/api/comments', { streamer_id: sid, body: 'Welcome' })).status,
  ).toBe(201);
  long = await t.streamer('Long Thread');
  const chatty = await t.signedIn(await t.user({ login: 'chatty', display_name: 'Chatty' }));
  for (let i = 1; i <= 20; i++) {
    const res = await chatty.post('/api/comments', {
      streamer_id: long,
      body: `Thought number ${i} of a long day`,
    });
    expect(res.status, res.text).toBe(201);
  }
}

const timeoutOf = async (t: TestApp) => {
  const users = (await (await t.sharedAdmin()).get('/api/users')).body as {
    id: number;
    timeout_until: string | null;
  }[];
  return users.find((u) => u.id === spammer.id)?.timeout_until ?? null;
};
const commentCount = async (t: TestApp) =>
  ((await t.client().get(`/api/comments?streamer_id=${sid}`)).body as unknown[]).length;

describe.runIf(runBrowser(import.meta.url))(
  'a moderator times out a commenter from the streamer page',
  () => {
    const env = useBrowser(seed);

    it('a page opened before the time-out: its Follow is refused, and the refusal says until when', async () => {
      const user = await pageAs(env, spammer, { lang: 'en' });
      await user.page.goto(`${env.base}/s/${sid}`);
      const follow = user.page.getByRole('button', { name: 'Follow', exact: true });
      await expect.poll(() => follow.isEnabled()).toBe(true);
      const admin = await env.t.sharedAdmin();
      expect((await admin.put(`/api/users?id=${spammer.id}`, { timeout_hours: 3 })).status).toBe(200);
      // The refusal names no time; the page asks who is signed in and writes the time-out's end.
      await follow.click();
      const until = /You are timed out until (.+): you can read/;
      const refusal = user.page.getByRole('alert').filter({ hasText: until });
      await refusal.waitFor();
      expect(until.exec((await refusal.textContent()) ?? '')![1]).toMatch(/\d/);
      const follows = await (await env.t.signedIn(spammer)).get('/api/follows');
      expect((follows.body as { streamer_ids: number[] }).streamer_ids).toEqual([]);
      expect((await admin.put(`/api/users?id=${spammer.id}`, { timeout_hours: 0 })).status).toBe(200);
      await user.context.close();
    });

    it('two clicks on the comment; the user then reads until when, in Czech and in English', async () => {
      const cases = [
        {
          phone: true,
          lang: 'cs' as const,
          hours: /1 den/,
          until: /Účet je dočasně omezen do (.+): číst můžete/,
        },
        {
          phone: false,
          lang: 'en' as const,
          hours: /1 day/,
          until: /You are timed out until (.+): you can read/,
        },
      ];
      for (const { phone, lang, hours, until } of cases) {
        // The commenter's page is open before the time-out: their next write meets it.
        const user = await pageAs(env, spammer, { phone, lang, dark: phone });
        await user.page.goto(`${env.base}/s/${sid}`);
        await user.page.locator('.comment', { hasText: 'Buy followers' }).waitFor();

        const mod = await pageAs(env, kaja, { phone, lang, dark: !phone });
        await mod.page.goto(`${env.base}/s/${sid}`);
        const spam = mod.page.locator('.comment', { hasText: 'Buy followers' });
        // Staff do not restrict staff: the moderator's own comment has no such menu.
        await spam.locator('details.restrict summary').waitFor();
        expect(
          await mod.page.locator('.comment', { hasText: 'Welcome' }).locator('details.restrict').count(),
        ).toBe(0);
        // The menu closes as the other menus do: on Escape (the focus back on its summary) and on
        // a tap outside it (a keyboard walk).
        const menu = spam.locator('details.restrict');
        await spam.getByText(phone ? 'Omezit nebo zablokovat' : 'Time out or ban').click();
        await mod.page.keyboard.press('Escape');
        await expect.poll(() => menu.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
        await spam.getByText(phone ? 'Omezit nebo zablokovat' : 'Time out or ban').click();
        await mod.page.locator('h1').first().click();
        await expect.poll(() => menu.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
        await spam.getByText(phone ? 'Omezit nebo zablokovat' : 'Time out or ban').click();
        await axe(env, mod.page, `time-out menu ${lang}`);
        await shot(mod.page, `timeout-menu-${phone ? 'phone' : 'desktop'}`);
        await spam.getByRole('button', { name: hours }).click();
        await spam.getByRole('status').waitFor();
        const stored = await timeoutOf(env.t);
        expect(stored).not.toBeNull();
        const hoursAhead = (Date.parse(stored!) - env.t.clock.now().getTime()) / 3_600_000;
        expect(hoursAhead).toBeGreaterThan(23.9);
        expect(hoursAhead).toBeLessThanOrEqual(24);

        // The stale page posts: the refusal says until when, and nothing is stored.
        const before = await commentCount(env.t);
        await user.page.locator('form.comment-form textarea').first().fill('One more offer');
        await user.page.locator('form.comment-form button[type=submit]').first().click();
        // The refusal, or (once the page learnt of the time-out) the notice where the form was.
        const refusal = user.page.locator('[role=alert], [role=status]').filter({ hasText: until }).first();
        await refusal.waitFor();
        const shown = until.exec((await refusal.textContent()) ?? '')![1]!;
        expect(shown).toMatch(/\d/);
        expect(await commentCount(env.t)).toBe(before);
        // A guest in another browser on the same address is any guest: the time-out is the user's.
        const guest = await newPage(env, { phone, lang });
        await guest.page.goto(`${env.base}/s/${sid}`);
        await guest.page.locator('form.comment-form textarea').first().fill('A guest from the same address');
        await guest.page.locator('form.comment-form button[type=submit]').first().click();
        await expect.poll(() => commentCount(env.t)).toBe(before + 1);
        await guest.context.close();

        // A fresh load says it above the form, before anything is written.
        await user.page.reload();
        await user.page.getByRole('status').filter({ hasText: until }).waitFor();
        // Votes and follows are refused too: their buttons wait for the end of the time-out.
        const scale = user.page.locator('.vote-scale');
        await expect.poll(() => scale.getByRole('button').count()).toBe(10);
        expect(await scale.getByRole('button', { disabled: false }).count()).toBe(0);
        const follow = user.page.getByRole('button', {
          name: lang === 'cs' ? 'Sledovat' : 'Follow',
          exact: true,
        });
        await expect.poll(() => follow.isDisabled()).toBe(true);
        await axe(env, user.page, `timed-out user ${lang}`);
        await shot(user.page, `timed-out-${phone ? 'phone' : 'desktop'}`);

        // Signed out, the same browser is still refused, and reads that this browser may not write
        // now, with no time (the guest's answer names none).
        await user.page.goto(`${env.base}/api/oauth/logout?return=/s/${sid}`);
        await user.page.locator('form.comment-form textarea').first().fill('Signed out, one more offer');
        await user.page.locator('form.comment-form button[type=submit]').first().click();
        await user.page
          .getByRole('alert')
          .filter({
            hasText:
              lang === 'cs'
                ? 'Psaní z tohoto prohlížeče je na čas omezeno'
                : 'Writing from this browser is paused',
          })
          .waitFor();
        expect(await user.page.locator('body').textContent()).not.toMatch(/omezen do\s*:|until\s*:/);
        expect(await commentCount(env.t)).toBe(before + 1);

        expect(
          (await (await env.t.sharedAdmin()).put(`/api/users?id=${spammer.id}`, { timeout_hours: 0 })).status,
        ).toBe(200);
        await user.context.close();
        await mod.context.close();
      }
    }, 120_000);

    it("the menu on a long page's last comment opens on the screen of a phone, with the keyboard in it", async () => {
      const { page, context } = await pageAs(env, kaja, { phone: true, lang: 'en' });
      await page.goto(`${env.base}/s/${long}`);
      await page.locator('.comment', { hasText: 'Thought number 20 ' }).waitFor();
      const menu = page.locator('.comment').last().locator('details.restrict');
      const summary = menu.locator('summary');
      // Its button at the screen's bottom edge, reached by the keyboard.
      await summary.evaluate((s) => s.scrollIntoView({ block: 'end' }));
      await summary.focus();
      await page.keyboard.press('Enter');
      await menu.getByRole('button', { name: '1 day' }).waitFor();
      const panel = menu.locator('.menu-panel');
      const seen = () =>
        panel.evaluate((p) => {
          const box = p.getBoundingClientRect();
          // Within a pixel: the scroll stops at a whole pixel, the panel's edge may not.
          return (
            box.top >= 0 &&
            box.bottom <= window.innerHeight + 1 &&
            box.left >= 0 &&
            box.right <= window.innerWidth
          );
        });
      await expect.poll(seen).toBe(true);
      expect(await panel.evaluate((p) => p.contains(document.activeElement))).toBe(true);
      await shot(page, 'timeout-menu-page-end-phone');
      // Escape gives the keyboard back to the menu's button, as before.
      await page.keyboard.press('Escape');
      expect(await summary.evaluate((s) => s === document.activeElement)).toBe(true);
      await context.close();
    });
  },
);
