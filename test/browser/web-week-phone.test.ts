import { describe, expect, it } from 'vitest';
import { CRITERIA_CS } from '../../src/shared/rules.ts';
import type { TestApp, TestUser } from '../helpers/app.ts';
import {
  adminPage,
  axe,
  type Env,
  newPage,
  type PageOptions,
  runBrowser,
  shot,
  useBrowser,
} from './browser.ts';

/**
 * Issue 45, "A community's week" 13 and 18 on a 375 px phone: the bell's list stays on the
 * screen, the header shows a moderator every link whole, the language switch is outside the
 * sign-in menu, the bell is drawn (no emoji), Czech decimals read alike, a timed-out user gets
 * no comment form, and the streamer's reply arrives without a reload.
 */
const PHONE = 375;
let sid = 0;
let voiced = 0;
let mod: TestUser;
let timedOut: TestUser;
let host: TestUser;

async function seed(t: TestApp) {
  const admin = await t.admin();
  sid = await t.streamer('Week Stage', { s: 7, g: 7, a: 7, v: 7, n: 7, ns: 7, o: 7 });
  voiced = await t.streamer('Reply Host', { s: 8, g: 8 });
  await t.streamer('Pětadvacetiznakový Streamer', { s: 5 });
  mod = await t.user({ login: 'weekmod', display_name: 'Týdenní moderátorka' }, { mod: true });
  timedOut = await t.user({ login: 'cooling', display_name: 'Cooling' });
  host = await t.user({ login: 'replyhost', display_name: 'Reply Host' });
  // Two members of its team rate Week Stage: Statistics 6 and 7 (6.5 on average), Graphics 7 and 7.
  const team = await admin.post('/api/rater_groups', { name: 'Week Team', streamer_id: sid });
  expect(team.status, team.text).toBe(201);
  for (const [i, s] of [6, 7].entries()) {
    const member = await t.user({ login: `rater${i}`, display_name: `Rater ${i}` });
    const added = await admin.post('/api/rater_groups?members=1', {
      group_id: team.body.id,
      login: member.login,
      provider: 'provider_a',
    });
    expect(added.status, added.text).toBeLessThan(300);
    const rated = await (
      await t.signedIn(member)
    ).put('/api/community_ratings', {
      group_id: team.body.id,
      r: { s, g: 7, a: 7, v: 7, n: 7, ns: 7, o: 7 },
    });
    expect(rated.status, rated.text).toBe(200);
  }
  expect((await admin.put(`/api/users?id=${timedOut.id}`, { timeout_hours: 24 })).status).toBe(200);
}

async function pageAs(env: Env, user: TestUser | null, opts: PageOptions = {}) {
  const opened = await newPage(env, { phone: true, ...opts });
  if (user) {
    const sidCookie = (await env.t.signedIn(user)).cookies.get('sid')!;
    await opened.context.addCookies([{ name: 'sid', value: sidCookie, url: env.base }]);
  }
  return opened;
}

/** The element's box lies inside the phone's width. */
async function onScreen(box: { x: number; width: number } | null, label: string) {
  expect(box, label).not.toBeNull();
  expect(box!.x, `${label} starts at ${box!.x}`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${label} ends at ${box!.x + box!.width}`).toBeLessThanOrEqual(PHONE);
}

describe.runIf(runBrowser(import.meta.url))("issue 45: a community's week on a phone", () => {
  const env = useBrowser(seed);

  it('the notification panel opens on the screen at 375 px, under a drawn bell, not an emoji (13, 18)', async () => {
    const { page, context } = await pageAs(env, mod, { lang: 'cs' });
    await page.goto(`${env.base}/`);
    const bell = page.locator('details.bell summary');
    await bell.locator('svg').waitFor();
    expect(await bell.textContent()).not.toMatch(/\p{Extended_Pictographic}/u);
    await bell.click();
    const panel = page.locator('.bell-panel');
    await panel.getByText('Upozornění').waitFor();
    await onScreen(await panel.boundingBox(), 'the notification panel');
    await shot(page, 'week-bell-panel-phone');
    await axe(env, page, 'notification panel, phone');
    // It closes as the account menu does (stop 71's walk): on Escape, focus back on the bell, and
    // on a tap outside it; opening the menu closes it.
    const open = () => page.locator('details.bell').evaluate((d) => (d as HTMLDetailsElement).open);
    // From inside the panel, as a keyboard user would be.
    await panel.evaluate((p) => {
      p.setAttribute('tabindex', '-1');
      (p as HTMLElement).focus();
    });
    await page.keyboard.press('Escape');
    expect(await open()).toBe(false);
    expect(await bell.evaluate((s) => s === document.activeElement)).toBe(true);
    await bell.click();
    await panel.getByText('Upozornění').waitFor();
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    expect(await open()).toBe(false);
    await bell.click();
    await panel.getByText('Upozornění').waitFor();
    await page.locator('details.menu summary').click();
    expect(await open()).toBe(false);
    await context.close();
  });

  it("the phone header shows a moderator's Administration link and every link whole (18)", async () => {
    for (const dark of [false, true]) {
      const { page, context } = await pageAs(env, mod, { lang: 'cs', dark });
      await page.goto(`${env.base}/`);
      const nav = page.locator('header nav');
      const admin = nav.getByRole('link', { name: 'Admin', exact: true });
      await admin.waitFor();
      for (const name of ['Žebříček', 'Navrhnout', 'Admin']) {
        const link = nav.getByRole('link', { name, exact: true });
        expect(await link.isVisible(), name).toBe(true);
        await onScreen(await link.boundingBox(), name);
        // Not cut off inside the bar: the link's text fits its own box.
        expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), name).toBe(true);
      }
      expect(await nav.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      // A row of their own: the links span the header's row, not what the logo leaves them.
      expect(
        await nav.evaluate((el) => el.getBoundingClientRect().width >= el.parentElement!.clientWidth - 2),
      ).toBe(true);
      await admin.click();
      await page.getByRole('heading', { name: 'Administrace' }).waitFor();
      // The link opens a tab the moderator may use, and the address names the tab shown.
      const path = new URL(page.url()).pathname;
      expect(path).not.toBe('/admin/streamers');
      expect(await page.locator(`nav.tabs a[href="${path}"]`).getAttribute('aria-current')).toBe('page');
      await axe(env, page, `moderator header, phone${dark ? ', dark' : ''}`);
      await shot(page, `week-header-moderator-phone${dark ? '-dark' : ''}`);
      await context.close();
    }
  });

  it("the administrator's streamer list keeps each row's buttons together on one line", async () => {
    const { page, context } = await pageAs(env, null, { lang: 'cs' });
    await adminPage(env, page);
    await page.goto(`${env.base}/admin/streamers`);
    const rows = page.locator('.admin-list > li');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    for (const row of await rows.all()) {
      const name = (await row.locator('a').first().textContent()) ?? '';
      const tops: number[] = [];
      for (const label of ['Přejmenovat', 'Upravit', 'Smazat']) {
        // Each names its streamer too (a screen reader's list of controls tells the rows apart).
        const button = row.getByRole('button', { name: `${label}: ${name}`, exact: true });
        const box = await button.boundingBox();
        await onScreen(box, `${name}: ${label}`);
        // The label whole on one line, not broken inside the word.
        const lines = await button.evaluate((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        });
        expect(lines, `${name}: ${label} on ${lines} lines`).toBe(1);
        tops.push(Math.round(box!.y));
      }
      expect(new Set(tops).size, `${name}: the buttons' tops ${tops.join(', ')}`).toBe(1);
    }
    await axe(env, page, 'streamer list, phone');
    await shot(page, 'week-admin-streamers-phone');
    await context.close();
  });

  it('the language switch is in the header, outside the sign-in menu (18)', async () => {
    const { page, context } = await pageAs(env, null, { lang: 'cs' });
    await page.goto(`${env.base}/`);
    await page.getByRole('heading', { name: 'Žebříček' }).waitFor();
    const menu = page.locator('details.menu');
    const pick = page.locator('header').getByRole('combobox', { name: 'Jazyk' });
    expect(await pick.isVisible()).toBe(true);
    expect(await menu.locator('select').count()).toBe(1); // the theme only
    await onScreen(await pick.boundingBox(), 'the language switch');
    await pick.selectOption('en');
    await page.getByRole('heading', { name: 'Ranking' }).waitFor();
    expect(await menu.getAttribute('open')).toBeNull();
    await axe(env, page, 'language switch, phone');
    await context.close();
  });

  it('Czech shows every decimal with a comma: "6,5" beside "7,0" (18)', async () => {
    const { page, context } = await pageAs(env, null, { lang: 'cs' });
    await page.goto(`${env.base}/s/${sid}`);
    const panel = page.locator('section.card', {
      has: page.getByRole('heading', { name: 'Hodnocení týmů', exact: true }),
    });
    const figure = (term: string) => panel.locator('dl div', { hasText: term }).locator('dd');
    await expect.poll(() => figure(CRITERIA_CS.s).textContent()).toBe('6,5');
    expect(await figure(CRITERIA_CS.g).textContent()).toBe('7,0');
    expect(await page.locator('main').innerText()).not.toMatch(/\d\.\d/);
    await axe(env, page, 'Czech decimals, phone');
    await context.close();
  });

  it('a timed-out user gets no comment form and no reply buttons, and reads until when (18)', async () => {
    await env.t
      .client()
      .post('/api/comments', { streamer_id: sid, body: 'Hello from a guest', author: 'Guest' });
    const { page, context } = await pageAs(env, timedOut, { lang: 'en' });
    await page.goto(`${env.base}/s/${sid}`);
    await page.locator('.comment', { hasText: 'Hello from a guest' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /You are timed out until/ })
      .waitFor();
    expect(await page.locator('form.comment-form').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Reply' }).count()).toBe(0);
    // Nor likes or reports, which the time-out refuses too (stop 71's walk: they failed on a click).
    expect(await page.getByRole('button', { name: 'Report' }).count()).toBe(0);
    expect(await page.locator('.comment button.like').count()).toBe(0);
    await axe(env, page, 'timed out, phone');
    // Anyone else on the same page has the form.
    const other = await pageAs(env, null, { lang: 'en' });
    await other.page.goto(`${env.base}/s/${sid}`);
    await other.page.locator('form.comment-form').waitFor();
    await other.context.close();
    await context.close();
  });

  it("the streamer's reply arrives on an open page without a reload (18)", async () => {
    const { page, context } = await pageAs(env, null, { lang: 'en' });
    await page.goto(`${env.base}/s/${voiced}`);
    await page.getByRole('heading', { name: 'Reply Host' }).waitFor();
    await page.waitForLoadState('networkidle');
    const said = await (
      await env.t.signedIn(host)
    ).put(`/api/streamers?id=${voiced}&reply=1`, {
      body: 'Thanks, everyone!',
    });
    expect(said.status, said.text).toBe(200);
    await page.getByText('Thanks, everyone!').waitFor();
    await axe(env, page, 'streamer reply live, phone');
    await context.close();
  });
});
