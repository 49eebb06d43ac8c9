/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startApp, type TestApp } from '../helpers/app.ts';
import { dbKind } from '../helpers/database.ts';
import { type FakeProviders, startFakeProviders } from '../helpers/fake-providers.ts';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const run = hasChromium && dbKind === 'sqlite';
if (!hasChromium) {
  console.log(
    '\n*** Browser tests SKIPPED: /usr/bin/chromium is missing (apt-get install -y chromium). ***\n',
  );
}

const SHOTS = 'test-results/screenshots';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let t: TestApp;
let fake: FakeProviders;
let browser: Browser;
let base: string;

async function newPage(
  opts: { phone?: boolean; lang?: 'cs' | 'en'; dark?: boolean } = {},
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({
    viewport: opts.phone ? { width: 360, height: 740 } : { width: 1280, height: 900 },
    bypassCSP: false,
    colorScheme: opts.dark ? 'dark' : 'light',
  });
  if (opts.lang) await context.addInitScript(`localStorage.setItem('lang', '${opts.lang}')`);
  const page = await context.newPage();
  page.on('pageerror', (err) => {
    throw err;
  });
  return { page, context };
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** axe-core, injected through a CSP-bypassing context: no serious or critical violation. */
async function axe(page: Page, label: string) {
  const context = await browser.newContext({
    bypassCSP: true,
    storageState: await page.context().storageState(),
  });
  const copy = await context.newPage();
  await copy.goto(page.url());
  await copy.waitForLoadState('networkidle');
  await copy.addScriptTag({ content: axeSource });
  const result = await copy.evaluate(async () => {
    const r = await (
      window as unknown as {
        axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe.run();
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  await context.close();
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad, `${label}: ${JSON.stringify(bad)}`).toEqual([]);
}

async function signIn(page: Page, provider: 'provider_a' | 'provider_b') {
  await page.goto(`${base}/api/oauth/login/${provider}`);
  await page.waitForURL(`${base}/`);
}

async function adminLogin(page: Page) {
  await page.goto(`${base}/#/admin`);
  await page.getByLabel(/Heslo|Password/).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: /Přihlásit|Log in/ }).click();
  await page.getByRole('heading', { name: /Administrace|Administration/ }).waitFor();
}

describe.runIf(run)('the web page in a real browser', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    fake = await startFakeProviders();
    t = await startApp(fake.env());
    base = t.config.baseUrl; // localhost: the host the sign-in cookie belongs to
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
      ],
    });
    const admin = await t.admin();
    const rate = async (name: string, v: number, extra = {}) => {
      const id = await t.streamer(name);
      await admin.put(`/api/streamers?id=${id}`, {
        r: { s: v, g: v, a: v - 1, v, n: v, ns: v - 2, o: v },
        reward: 40 + v * 5,
        ...extra,
      });
      return id;
    };
    await rate('Alpha Gamer', 9, { status: 'live', game: 'Chess', title: 'Blitz & chill' });
    await rate('Beta Builder', 6);
    await rate('Gamma Streams', 7, { provider_b: 'gammakick' });
    await t.streamer('Delta Unrated');
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  it('a visitor sees the ranking, opens a streamer with its chart, comments and suggests (Czech, desktop)', async () => {
    const { page, context } = await newPage();
    await page.goto(base + '/');
    const names = page.locator('.ranking .name');
    await expect
      .poll(() => names.allTextContents())
      .toEqual(['Alpha Gamer', 'Gamma Streams', 'Beta Builder']);
    await expect.poll(() => page.locator('.badge.live').count()).toBe(1);
    await shot(page, 'ranking-desktop');
    await axe(page, 'ranking');

    await names.first().click();
    await page.locator('.radar svg').waitFor();
    expect(await page.locator('.radar text').count()).toBe(7);
    await expect.poll(() => page.locator('.score-table').textContent()).toContain('Statistiky');

    // an error keeps what was typed and shows next to the form
    await page.getByLabel('Komentář', { exact: true }).fill('x');
    await page.getByRole('button', { name: 'Odeslat komentář' }).click();
    await expect.poll(() => page.locator('#comment-error').textContent()).toContain('příliš krátký');
    expect(await page.getByLabel('Komentář', { exact: true }).inputValue()).toBe('x');

    await page.getByLabel('Vaše jméno (nepovinné)').fill('Návštěvník');
    await page
      .getByLabel('Komentář', { exact: true })
      .fill('<img src=x onerror="document.title=1"> Super stream!');
    await page.getByRole('button', { name: 'Odeslat komentář' }).click();
    await expect
      .poll(() => page.locator('.comment-body').last().textContent())
      .toBe('<img src=x onerror="document.title=1"> Super stream!');
    expect(await page.locator('.comments img[src="x"]').count()).toBe(0);
    await shot(page, 'streamer-desktop');
    await axe(page, 'streamer');

    await page.getByRole('link', { name: 'Navrhnout' }).click();
    await page.getByLabel('Jméno streamera').fill('Epsilon Newbie');
    await page.getByRole('button', { name: 'Odeslat návrh' }).click();
    await expect.poll(() => page.locator('.success').textContent()).toContain('Epsilon Newbie');
    await page.getByLabel('Jméno streamera').fill('Alpha Gamer');
    await page.getByRole('button', { name: 'Odeslat návrh' }).click();
    await expect.poll(() => page.locator('#suggest-error').textContent()).toContain('už v katalogu');
    await axe(page, 'suggest');
    await context.close();
  });

  it('users sign in through each provider, see who they are, and sign out', async () => {
    for (const [provider, name] of [
      ['provider_a', 'TwitchDev'],
      ['provider_b', 'KickUser'],
    ] as const) {
      const { page, context } = await newPage();
      await page.goto(base + '/');
      await page
        .getByRole('link', {
          name: provider === 'provider_a' ? 'Přihlásit přes Twitch' : 'Přihlásit přes Kick',
        })
        .click();
      await page.waitForURL(`${base}/`);
      await expect.poll(() => page.locator('.who').textContent()).toContain(name);
      await page.getByRole('link', { name: 'Odhlásit' }).click();
      await page.waitForURL(`${base}/`);
      await page.getByRole('link', { name: 'Přihlásit přes Twitch' }).waitFor();
      await context.close();
    }
  });

  it('sign-in errors show as a human message, never the raw code alone', async () => {
    const { page, context } = await newPage({ lang: 'en' });
    fake.b.failure = 'token_error';
    await signIn(page, 'provider_b').catch(() => undefined);
    await page.waitForURL((u) => u.pathname === '/');
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('Kick did not accept the sign-in (error 400): Invalid request');
    expect(page.url()).not.toContain('auth_error');
    fake.b.failure = 'none';
    await page.goto(`${base}/?auth_error=provider_a_not_configured`);
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('Sign-in with Twitch is not set up');
    await context.close();
  });

  it('a team member sees unevaluated streamers marked for rating', async () => {
    const { page, context } = await newPage();
    await signIn(page, 'provider_a');
    const admin = await t.admin();
    const team = await admin.post('/api/rater_groups', { name: 'Browser Team' });
    await admin.post('/api/rater_groups?members=1', { group_id: team.body.id, login: 'twitchdev' });
    await page.goto(base + '/');
    await page.getByRole('heading', { name: 'Streameři pro váš tým' }).waitFor();
    await expect.poll(() => page.locator('.row.pending .name').allTextContents()).toContain('Delta Unrated');
    await shot(page, 'team-view');
    await admin.del(`/api/rater_groups?id=${team.body.id}`);
    await context.close();
  });

  it('a moderator sees the full list with notes and rates with the reward formula shown', async () => {
    const { page, context } = await newPage({ lang: 'en' });
    await signIn(page, 'provider_b');
    const me = await t.db
      .selectFrom('users')
      .select('id')
      .where('provider', '=', 'provider_b')
      .executeTakeFirstOrThrow();
    await (await t.admin()).put(`/api/users?id=${me.id}`, { is_mod: true });
    await page.goto(base + '/');
    await page.getByLabel('Show all streamers with notes').check();
    await expect.poll(() => page.locator('.ranking .name').count()).toBeGreaterThanOrEqual(5);
    await page.getByRole('link', { name: 'Delta Unrated' }).click();
    for (const [label, v] of [
      ['Statistics', 10],
      ['Graphics', 10],
      ['Alerts', 10],
      ['Extras', 5],
    ] as const) {
      await page.getByLabel(label, { exact: true }).fill(String(v));
    }
    await expect
      .poll(() => page.locator('.rating-form .hint').textContent())
      .toBe('Reward by the moderator formula: 80');
    await page.getByLabel('Notes (only staff see them)').fill('Needs better alerts');
    await page.getByRole('button', { name: 'Save rating' }).click();
    await page.getByRole('status').waitFor();
    await expect.poll(() => page.locator('.score-table').textContent()).toContain('35 / 70');
    await shot(page, 'moderator-rating');
    await axe(page, 'rating editor');
    await context.close();
  });

  it('the administrator adds, edits, locks and deletes a streamer and manages a team, users and settings', async () => {
    const { page, context } = await newPage({ lang: 'en' });
    await signIn(page, 'provider_a');
    await adminLogin(page);
    await axe(page, 'admin streamers');

    await page.getByLabel('Streamer name').fill('Zeta Fresh');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.locator('.success').textContent()).toContain('Zeta Fresh');

    const row = page.locator('.admin-list > li', { hasText: 'Zeta Fresh' });
    await row.getByRole('button', { name: 'Edit' }).click();
    for (const label of [
      'Statistics',
      'Graphics',
      'Alerts',
      'Extras',
      'Preview',
      'Settings',
      'Originality',
    ]) {
      await row.getByLabel(label, { exact: true }).fill('8');
    }
    await row.getByLabel('Reward (0–130)').fill('120');
    await row.getByLabel('Status').selectOption('live');
    await row.getByLabel('Game').fill('Factorio');
    await row.getByLabel('Stream title').fill('Factory must grow');
    await row.getByLabel('Kick channel name').fill('zetakick');
    await row.getByLabel('Lock community ratings').check();
    await row.getByRole('button', { name: 'Save rating' }).click();
    await expect
      .poll(async () =>
        (await t.client().get('/api/streamers')).body.find((s: any) => s.name === 'Zeta Fresh'),
      )
      .toMatchObject({
        reward: 120,
        status: 'live',
        game: 'Factorio',
        provider_b: 'zetakick',
        community_locked: true,
      });
    await shot(page, 'admin-streamers');

    // delete asks first
    await page
      .locator('.admin-list > li', { hasText: 'Zeta Fresh' })
      .getByRole('button', { name: 'Delete' })
      .first()
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await t.client().get('/api/streamers')).body.some((s: any) => s.name === 'Zeta Fresh')).toBe(
      true,
    );
    await page
      .locator('.admin-list > li', { hasText: 'Zeta Fresh' })
      .getByRole('button', { name: 'Delete' })
      .first()
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect
      .poll(async () =>
        (await t.client().get('/api/streamers')).body.some((s: any) => s.name === 'Zeta Fresh'),
      )
      .toBe(false);

    // teams
    await page.getByRole('link', { name: 'Teams' }).click();
    await page.getByLabel('Team name').first().fill('Night Raters');
    await page.getByLabel('Streamer').first().selectOption({ label: 'Beta Builder' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const team = page.locator('.team', { hasText: 'Night Raters' });
    await team.waitFor();
    await team.getByLabel('Login').fill('nobody-here');
    await team.getByRole('button', { name: 'Add member' }).click();
    await expect
      .poll(() => team.locator('.field-error').textContent())
      .toContain("User 'nobody-here' on provider_a");
    expect(await team.getByLabel('Login').inputValue()).toBe('nobody-here');
    await team.getByLabel('Login').fill('TwitchDev');
    await team.getByLabel('Role').selectOption('owner');
    await team.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => team.locator('.members').textContent()).toContain('owner');
    await shot(page, 'admin-teams');
    await axe(page, 'admin teams');
    await team.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => team.locator('.members li').count()).toBe(0);

    // users and settings
    await page.getByRole('link', { name: 'Users' }).click();
    const user = page.locator('.admin-row', { hasText: 'TwitchDev' });
    await user.getByLabel('Moderator').check();
    await expect
      .poll(async () => (await (await t.admin()).get('/api/users?q=twitchdev')).body[0].is_mod)
      .toBe(true);
    await axe(page, 'admin users');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Require sign-in to comment').check();
    await expect.poll(async () => (await t.client().get('/api/settings')).body.auth_enabled).toBe(true);
    await page.getByLabel('Require sign-in to comment').uncheck();
    await context.close();
  });

  it('a team member rates the team streamer, sees it again, and everyone sees the community average', async () => {
    const admin = await t.admin();
    const list = (await admin.get('/api/streamers?all=1')).body;
    const gamma = list.find((s: any) => s.name === 'Gamma Streams');
    const team = await admin.post('/api/rater_groups', { name: 'Gamma Team', streamer_id: gamma.id });
    const { page, context } = await newPage({ lang: 'en' });
    await signIn(page, 'provider_a');
    await admin.post('/api/rater_groups?members=1', { group_id: team.body.id, login: 'twitchdev' });
    await page.goto(`${base}/#/s/${gamma.id}`);
    await page.getByRole('heading', { name: 'Your rating for team Gamma Team' }).waitFor();
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Save my rating' }) });
    for (const label of [
      'Statistics',
      'Graphics',
      'Alerts',
      'Extras',
      'Preview',
      'Settings',
      'Originality',
    ]) {
      await form.getByLabel(label, { exact: true }).fill('6');
    }
    await form.getByLabel('Statistics', { exact: true }).fill('9');
    await page.getByRole('button', { name: 'Save my rating' }).click();
    await page.getByText('Your rating was saved.').waitFor();
    await expect.poll(() => page.getByText(/1 ratings from team members/).count()).toBe(1);
    await page.reload();
    await expect.poll(() => form.getByLabel('Statistics', { exact: true }).inputValue()).toBe('9');
    await shot(page, 'community-rating');
    await axe(page, 'community rating');

    // a visitor sees the average; after the lock the member's form is disabled
    await admin.put(`/api/streamers?id=${gamma.id}&lock=1`, { community_locked: true });
    const visitor = await newPage({ lang: 'en' });
    await visitor.page.goto(`${base}/#/s/${gamma.id}`);
    await expect
      .poll(() =>
        visitor.page
          .locator('section.card', {
            has: visitor.page.getByRole('heading', { name: 'Community rating', exact: true }),
          })
          .textContent(),
      )
      .toContain('total 45 / 70');
    await visitor.context.close();
    await page.reload();
    await page.getByText('Ratings are locked for this streamer, so yours cannot change now.').waitFor();
    expect(await page.getByRole('button', { name: 'Save my rating' }).isDisabled()).toBe(true);
    await admin.put(`/api/streamers?id=${gamma.id}&lock=1`, { community_locked: false });
    await context.close();
  });

  it('the administrator reads the audit log in the page', async () => {
    const { page, context } = await newPage({ lang: 'en' });
    await adminLogin(page);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await expect.poll(() => page.locator('.audit li').count()).toBeGreaterThan(3);
    expect(await page.locator('.audit').textContent()).toContain('Locked community ratings of Gamma Streams');
    await shot(page, 'admin-audit');
    await axe(page, 'audit log');
    await context.close();
  });

  it('remembers the language and follows dark mode; works at phone width without sideways scrolling', async () => {
    const { page, context } = await newPage({ phone: true, dark: true });
    await page.goto(base + '/');
    await page.getByLabel('Jazyk').selectOption('en');
    await page.getByRole('heading', { name: 'Ranking' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Ranking' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(18, 17, 24)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'ranking-phone-dark');
    await page.locator('.ranking .name').first().click();
    await page.locator('.radar svg').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'streamer-phone-dark');
    await axe(page, 'phone streamer');
    await context.close();

    const light = await newPage({ phone: true, lang: 'cs' });
    await light.page.goto(base + '/#/suggest');
    await light.page.getByRole('heading', { name: 'Navrhnout streamera' }).waitFor();
    expect(await light.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(light.page, 'suggest-phone');
    await light.context.close();
  });

  it('serves hashed assets compressed with long-lived cache headers, and the page with no-cache', async () => {
    const index = await fetch(base + '/', { headers: { 'accept-encoding': 'br' } });
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(base + js, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('content-security-policy')).toContain("object-src 'none'");
    const again = await fetch(base + js, { headers: { 'if-none-match': asset.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});
