import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { changeAdminPassword } from '../../src/auth/admin-password.ts';
import { ADMIN_PASSWORD, startApp, type TestApp } from '../helpers/app.ts';
import { adminPage, axe, newPage, runBrowser, shot, signIn, useBrowser } from './browser.ts';

/**
 * Issues 16 and 17, the page: the header's menu (closes by itself, sign out everywhere, Your
 * data, privacy), sign-out and refused sign-in back on the page, Your data (export, delete),
 * the teams (a member's own streamer first, owners manage raters, no silent role change,
 * Czech order), the administrator password form and password sign-in switched off.
 */
/** Phones in the dark theme, desktops in the light one: both themes pass axe. */
const SIZES = [
  { phone: true, label: 'phone' },
  { phone: false, label: 'desktop' },
] as const;

describe.runIf(runBrowser(import.meta.url))('header, teams and your data', () => {
  const env = useBrowser();

  const streamerId = async (name: string) => {
    const admin = await env.t.sharedAdmin();
    return ((await admin.get('/api/streamers?all=1')).body as { id: number; name: string }[]).find(
      (s) => s.name === name,
    )!.id;
  };
  const menu = (page: Page) => page.locator('details.menu');
  const openMenu = async (page: Page) => {
    await page.locator('.menu summary').click();
    await expect.poll(() => menu(page).getAttribute('open')).not.toBeNull();
  };
  const closed = (page: Page) => expect.poll(() => menu(page).getAttribute('open')).toBeNull();

  for (const { phone, label } of SIZES) {
    it(`${label}: the menu closes by itself; the logo and the admin link have names; the privacy page`, async () => {
      const { page, context } = await newPage(env, { phone, lang: 'en', dark: phone });
      await page.goto(`${env.base}/s/${await streamerId('Alpha Gamer')}`);
      await page.getByRole('heading', { name: /Alpha Gamer/ }).waitFor();
      // Issue 17 bug 13: the logo link has a name at every width.
      await page.getByRole('link', { name: 'Streamer rating', exact: true }).waitFor();

      await openMenu(page);
      await page.locator('main').click({ position: { x: 5, y: 5 } });
      await closed(page);
      await openMenu(page);
      await page.keyboard.press('Escape');
      await closed(page);
      await openMenu(page);
      await shot(page, `people-menu-visitor-${label}`);
      await page.getByRole('link', { name: 'Privacy' }).first().click();
      await page.getByRole('heading', { name: 'Privacy: what the site stores' }).waitFor();
      await closed(page);
      const text = (await page.locator('main').textContent()) ?? '';
      for (const fact of ['keyed hash (HMAC)', 'never the address itself', 'after 14 days unused', '30 days'])
        expect(text).toContain(fact);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        phone ? 375 : 1366,
      );
      await shot(page, `people-privacy-${label}`);
      await axe(env, page, `privacy ${label}`);
      await context.close();

      // In Czech too; the administrator's link has a Czech name at every width (short on a phone).
      const cs = await newPage(env, { phone, lang: 'cs' });
      await cs.page.goto(`${env.base}/privacy`);
      await cs.page.getByRole('heading', { name: 'Soukromí: co web ukládá' }).waitFor();
      await shot(cs.page, `people-privacy-cs-${label}`);
      await adminPage(env, cs.page);
      const admin = cs.page
        .getByRole('navigation', { name: 'Hlavní navigace' })
        .getByRole('link', { name: phone ? 'Správa' : 'Administrace', exact: true });
      expect(await admin.count()).toBe(1);
      await cs.context.close();
    });

    it(`${label}: a long display name beside the header's picture leaves the picture its size`, async () => {
      const user = await env.t.user({ display_name: 'Bartholomew Maximilian the Streamer Watcher' });
      const client = await env.t.signedIn(user);
      const { page, context } = await newPage(env, { phone, lang: 'en' });
      await context.addCookies([{ name: 'sid', value: client.cookies.get('sid')!, url: env.base }]);
      await page.goto(`${env.base}/`);
      const picture = page.locator('header .avatar').first();
      await picture.waitFor();
      const box = await picture.boundingBox();
      expect([box?.width, box?.height]).toEqual([24, 24]);
      await context.close();
    });

    it(`${label}: sign-out and a refused sign-in land back on the page`, async () => {
      const id = await streamerId('Beta Builder');
      const { page, context } = await newPage(env, { phone, lang: 'en' });
      await signIn(env, page, 'provider_a');
      await page.goto(`${env.base}/s/${id}-beta-builder`);
      await page.getByRole('heading', { name: /Beta Builder/ }).waitFor();
      await openMenu(page);
      await page.getByRole('link', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(new RegExp(`/s/${id}-beta-builder$`));
      await page.locator('.menu summary', { hasText: 'Sign in' }).waitFor();

      env.fake.a.failure = 'deny';
      try {
        await openMenu(page);
        await page.getByRole('link', { name: 'Sign in with Twitch' }).click();
        await page.waitForURL(new RegExp(`/s/${id}-beta-builder$`));
        await page
          .getByRole('alert')
          .filter({ hasText: /sign-in/i })
          .first()
          .waitFor();
        await page.getByRole('heading', { name: /Beta Builder/ }).waitFor();
        await shot(page, `people-refused-${label}`);
      } finally {
        env.fake.a.failure = 'none';
      }
      await context.close();
    });

    it(`${label}: Your data: the export, sign out everywhere, and deleting the account`, async () => {
      const { page, context } = await newPage(env, { phone, lang: 'en', dark: phone });
      await signIn(env, page, 'provider_a');
      const other = await newPage(env, { phone, lang: 'en' });
      await signIn(env, other.page, 'provider_a');

      await openMenu(page);
      // Not in a team: the menu offers no "Your team".
      expect(await menu(page).getByRole('link', { name: 'Your team' }).count()).toBe(0);
      // The site sends no e-mail here: the page says so without asking for what would answer 409.
      const refused: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400) refused.push(`${r.status()} ${new URL(r.url()).pathname}`);
      });
      await page.getByRole('link', { name: 'Your data' }).click();
      await page.getByRole('heading', { name: 'Your data', level: 1 }).waitFor();
      await page.getByText('This site does not send e-mail.').waitFor();
      expect(refused).toEqual([]);
      await closed(page);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download (JSON)' }).click(),
      ]);
      const file: unknown = JSON.parse(await readFile(await download.path(), 'utf8'));
      expect(JSON.stringify(file)).toContain('TwitchDev');
      await shot(page, `people-your-data-${label}`);
      await axe(env, page, `your data ${label}`);

      // Sign out everywhere, from the menu: the other browser is signed out too.
      await openMenu(page);
      await menu(page).getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('status').filter({ hasText: 'You were signed out on every device.' }).waitFor();
      await page.getByText('Sign in with Twitch or Kick to download or delete your data.').waitFor();
      await other.page.reload();
      await other.page.locator('.menu summary', { hasText: 'Sign in' }).waitFor();
      await other.context.close();

      // Deleting asks for the login, then once more.
      await signIn(env, page, 'provider_a');
      await page.goto(`${env.base}/your-data`);
      const me = (await (await page.request.get(`${env.base}/api/oauth/me`)).json()).user;
      await page.getByLabel(/To confirm, type your login/).fill('someone else');
      await page.getByRole('button', { name: 'Delete my account for good' }).click();
      // The typed login is checked before the last question (issue 30, item 21).
      await page
        .getByRole('alert')
        .filter({ hasText: /Type your login .* exactly/ })
        .waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      await page.getByLabel(/To confirm, type your login/).fill(me.login);
      await page.getByRole('button', { name: 'Delete my account for good' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      expect((await (await page.request.get(`${env.base}/api/oauth/me`)).json()).user).not.toBeNull();
      await page.getByRole('button', { name: 'Delete my account for good' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete my account for good' }).click();
      await page.getByText('Your account was deleted.').waitFor();
      expect((await (await page.request.get(`${env.base}/api/oauth/me`)).json()).user).toBeNull();
      await shot(page, `people-deleted-${label}`);
      await context.close();
    });
  }

  it('teams: the member sees their own streamer first, the owner manages raters, roles explained', async () => {
    const admin = await env.t.sharedAdmin();
    const gamma = await streamerId('Gamma Streams');
    const team = (await admin.post('/api/rater_groups', { name: 'Gamma Team', streamer_id: gamma })).body;
    const { page, context } = await newPage(env, { lang: 'en' });
    await signIn(env, page, 'provider_a');
    await admin.post('/api/rater_groups?members=1', { group_id: team.id, login: 'twitchdev', role: 'owner' });
    await env.t.user({ login: 'kelly', display_name: 'Kelly' });
    await env.t.user({ login: 'kaja', display_name: 'Kája' });

    for (const { phone, label } of SIZES) {
      await page.setViewportSize(phone ? { width: 375, height: 740 } : { width: 1366, height: 900 });
      await page.goto(env.base + '/');
      // Issue 17 bug 2: the team's own streamer comes first, and nobody is told to rate others.
      const banner = page.getByRole('complementary', { name: 'Gamma Team' });
      await banner.getByText("You rate only your team's streamer: Gamma Streams.").waitFor();
      const main = (await page.locator('main').textContent()) ?? '';
      expect(main.indexOf('Gamma Team')).toBeLessThan(main.indexOf('Alpha Gamer'));
      expect(main).not.toContain('still need your team');
      await shot(page, `people-team-ranking-${label}`);
      await axe(env, page, `team ranking ${label}`);

      await openMenu(page);
      await menu(page).getByRole('link', { name: 'Your team' }).waitFor();
      await page.keyboard.press('Escape');
      await banner.getByRole('link', { name: 'Rate Gamma Streams' }).click();
      await page.getByRole('heading', { name: 'Your team', level: 1 }).waitFor();
      await page.getByText('You own this team: you add and remove its raters').waitFor();
      await page.getByRole('heading', { name: 'Your rating: Gamma Team' }).waitFor();
      if (label === 'phone') {
        // The second typed as the page shows logins (`@kaja`): the `@` is not part of it.
        for (const login of ['kelly', '@kaja']) {
          await page.getByLabel('Login').fill(login);
          await page.getByRole('button', { name: 'Add a rater' }).click();
          await page.getByRole('status').filter({ hasText: 'is a rater of the team' }).waitFor();
        }
        // Adding a rater again changes nothing, and says so.
        await page.getByLabel('Login').fill('KAJA');
        await page.getByRole('button', { name: 'Add a rater' }).click();
        await page.getByRole('status').filter({ hasText: 'Kája is already in the team.' }).waitFor();
      }
      // The owner first, then the raters the Czech way: Kája before Kelly.
      await expect
        .poll(() => page.locator('.members li strong').allTextContents())
        .toEqual(['TwitchDev', 'Kája', 'Kelly']);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        phone ? 375 : 1366,
      );
      await shot(page, `people-my-team-${label}`);
      await axe(env, page, `my team ${label}`);
    }
    await page.getByRole('button', { name: 'Remove Kelly' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect
      .poll(() => page.locator('.members li strong').allTextContents())
      .toEqual(['TwitchDev', 'Kája']);
    // Said, where the last add's line said the opposite, and the keyboard is there (stop 109's week).
    const said = page.getByRole('status').filter({ hasText: 'Kelly was removed from “Gamma Team”.' });
    await said.waitFor();
    expect(await page.getByText('is a rater of the team').count()).toBe(0);
    expect(await said.evaluate((el) => el === document.activeElement)).toBe(true);

    // Another streamer's page does not offer the form, and says why.
    await page.goto(`${env.base}/s/${await streamerId('Alpha Gamer')}`);
    await page.getByText('Your team does not rate this streamer').waitFor();
    expect(await page.getByRole('button', { name: 'Save my rating' }).count()).toBe(0);

    await context.close();
  });

  it('teams administration: adding a member again never changes their role silently', async () => {
    const admin = await env.t.sharedAdmin();
    const team = (await admin.get('/api/rater_groups')).body.find(
      (g: { name: string }) => g.name === 'Gamma Team',
    );
    const role = async () =>
      (await admin.get('/api/rater_groups')).body
        .find((g: { id: number }) => g.id === team.id)
        .members.find((m: { login: string }) => m.login === 'twitchdev').role;
    for (const { phone, label } of SIZES) {
      const { page, context } = await newPage(env, { phone, lang: 'en', dark: phone });
      await adminPage(env, page);
      await page.getByRole('link', { name: 'Teams' }).click();
      const card = page.locator('section.team', { has: page.getByRole('heading', { name: 'Gamma Team' }) });
      await card.getByLabel('Login').fill('TwitchDev');
      await card.getByLabel('Role').selectOption('owner');
      await card.getByRole('button', { name: 'Add member' }).click();
      await card.getByText('TwitchDev is already in the team as owner.').waitFor();
      await card.getByLabel('Role').selectOption('rater');
      await card.getByRole('button', { name: 'Add member' }).click();
      await page
        .getByRole('dialog')
        .getByText('TwitchDev is already in the team as owner. Change the role to rater?')
        .waitFor();
      await shot(page, `people-teams-admin-ask-${label}`);
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      expect(await role()).toBe('owner');
      await page.getByText('The owner manages the team').waitFor();
      expect(await card.locator('.members li strong').allTextContents()).toEqual(['TwitchDev', 'Kája']);
      await axe(env, page, `teams admin ${label}`);
      await context.close();
    }
  });

  describe('the administrator password', () => {
    let own: TestApp;
    let off: TestApp;

    it('the change form explains what it does; a change signs out the password sessions', async () => {
      // The password kept in the database (not the environment), so the page may change it.
      own = await startApp({ ...env.fake.env(), ADMIN_PASSWORD: '' });
      await changeAdminPassword(own.app.database, ADMIN_PASSWORD, async () => {});
      try {
        for (const { phone, label } of SIZES) {
          const { page, context } = await newPage(env, { phone, lang: 'en', dark: phone });
          await page.goto(`${own.config.baseUrl}/admin`);
          await page.getByLabel('Password').fill(ADMIN_PASSWORD);
          await page.getByRole('button', { name: 'Log in' }).click();
          await page.getByRole('link', { name: 'Settings' }).click();
          await page
            .getByText(/signs out everyone signed in to the administration with the password/)
            .waitFor();
          await shot(page, `people-password-${label}`);
          await axe(env, page, `password form ${label}`);
          const other = await own.admin();
          await page.getByLabel('New password').fill(`${ADMIN_PASSWORD} ${label}`.slice(0, 40));
          await page.getByRole('button', { name: 'Change password' }).click();
          await page.getByRole('dialog').getByRole('button', { name: 'Change password' }).click();
          await page.getByRole('status').filter({ hasText: 'The password is changed' }).waitFor();
          await page.getByRole('heading', { name: 'Administrator login' }).waitFor();
          expect((await other.get('/api/auth/check')).body).not.toEqual({ admin: true });
          await changeAdminPassword(own.app.database, ADMIN_PASSWORD, async () => {});
          await context.close();
        }
      } finally {
        await own.close();
      }
    });

    it('a password set by the environment: the page says so before any try, and offers no form', async () => {
      const { page, context } = await newPage(env, { lang: 'en' });
      await adminPage(env, page);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page
        .getByText("The password is set in the server's configuration and cannot be changed here.")
        .waitFor();
      expect(await page.getByLabel('New password').count()).toBe(0);
      await context.close();
    });

    it('with ADMIN_PASSWORD_LOGIN=false the login says so and offers the accounts', async () => {
      off = await startApp({ ...env.fake.env(), ADMIN_PASSWORD_LOGIN: 'false' });
      try {
        for (const { phone, label } of SIZES) {
          const { page, context } = await newPage(env, { phone, lang: 'cs' });
          await page.goto(`${off.config.baseUrl}/admin`);
          await page.getByLabel('Heslo').fill(ADMIN_PASSWORD);
          await page.getByRole('button', { name: 'Přihlásit' }).click();
          await page.getByText('Přihlášení heslem je na tomto webu vypnuté.', { exact: false }).waitFor();
          await page.getByRole('link', { name: 'Přihlásit přes Twitch' }).first().waitFor();
          await shot(page, `people-password-off-${label}`);
          await axe(env, page, `password off ${label}`);
          await context.close();
        }
      } finally {
        await off.close();
      }
    });
  });
});
