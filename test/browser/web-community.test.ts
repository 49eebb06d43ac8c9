import { describe, expect, it } from 'vitest';
import { adminPage, axe, newPage, runBrowser, shot, signIn, useBrowser } from './browser.ts';
import { contrast } from './contrast.ts';
import { cs } from '../../web/src/locales/cs.ts';

describe.runIf(runBrowser(import.meta.url))('community rating, audit log, themes and assets', () => {
  const env = useBrowser();

  it('a team member rates the team streamer, sees it again, and everyone sees the community average', async () => {
    const admin = await env.t.sharedAdmin();
    const list = (await admin.get('/api/streamers?all=1')).body;
    const gamma = list.find((s: any) => s.name === 'Gamma Streams');
    const team = await admin.post('/api/rater_groups', { name: 'Gamma Team', streamer_id: gamma.id });
    const { page, context } = await newPage(env, { lang: 'en' });
    await signIn(env, page, 'provider_a');
    await admin.post('/api/rater_groups?members=1', { group_id: team.body.id, login: 'twitchdev' });
    await page.goto(`${env.base}/#/s/${gamma.id}`);
    await page.getByRole('heading', { name: 'Your rating: Gamma Team' }).waitFor();
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Save my rating' }) });
    // Untouched, the form is empty and sends nothing: no rating of seven zeros.
    expect(await form.getByLabel('Statistics', { exact: true }).inputValue()).toBe('');
    await page.getByRole('button', { name: 'Save my rating' }).click();
    expect(await form.evaluate((f: HTMLFormElement) => f.checkValidity())).toBe(false);
    expect((await env.t.client().get(`/api/community_ratings?streamer_id=${gamma.id}`)).body.count).toBe(0);
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
    await expect.poll(() => page.getByText(/1 rating from team members/).count()).toBe(1);
    await page.reload();
    await expect.poll(() => form.getByLabel('Statistics', { exact: true }).inputValue()).toBe('9');
    await shot(page, 'community-rating');
    await axe(env, page, 'community rating');

    // a visitor sees the average; after the lock the member's form is disabled
    await admin.put(`/api/streamers?id=${gamma.id}&lock=1`, { community_locked: true });
    const visitor = await newPage(env, { lang: 'en' });
    await visitor.page.goto(`${env.base}/#/s/${gamma.id}`);
    await expect
      .poll(() =>
        visitor.page
          .locator('section.card', {
            has: visitor.page.getByRole('heading', { name: "Teams' rating", exact: true }),
          })
          .textContent(),
      )
      .toContain('· 6.4 / 10');
    await visitor.context.close();
    await page.reload();
    await page.getByText('Ratings are locked for this streamer, so yours cannot change now.').waitFor();
    expect(await page.getByRole('button', { name: 'Save my rating' }).isDisabled()).toBe(true);
    await admin.put(`/api/streamers?id=${gamma.id}&lock=1`, { community_locked: false });
    await context.close();
  });

  it('the administrator reads the audit log in the page', async () => {
    // An entry long enough to wrap on a desktop's width.
    const admin = await env.t.sharedAdmin();
    await admin.put('/api/settings', {
      operator_name: 'Spolek přátel streamování a komunitního hodnocení z Dolní Lhoty u Kamenice',
      operator_contact: 'https://example.org/spolek/kontakt/provozovatel-sluzby-hodnoceni-streameru',
    });
    const { page, context } = await newPage(env, { lang: 'en' });
    await adminPage(env, page);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await expect.poll(() => page.locator('.audit li').count()).toBeGreaterThan(3);
    // The date is a column of its own: no line of an entry, however long, starts under it.
    const underTheDate = await page.locator('.audit li').evaluateAll((items) =>
      items.flatMap((li) => {
        const date = li.querySelector('time')!.getBoundingClientRect();
        const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
        const lines: number[] = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement?.closest('time') || !node.textContent?.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const rect of range.getClientRects()) lines.push(rect.left);
        }
        return lines.filter((left) => left < date.right).map(() => li.textContent);
      }),
    );
    expect(underTheDate).toEqual([]);
    expect(
      await page
        .locator('.audit li', { hasText: 'Operator changed' })
        .evaluate((li) => li.getBoundingClientRect().height),
    ).toBeGreaterThan(30);
    expect(await page.locator('.audit').textContent()).toContain('Locked community ratings of Gamma Streams');
    // Every entry's title is worded, never an action's key (`streamer.rate`).
    const rawKey = /^[a-z_]+\.[a-z_]+$/;
    expect(
      (await page.locator('.audit strong').allTextContents()).filter((title) => rawKey.test(title)),
    ).toEqual([]);
    await shot(page, 'admin-audit');
    await axe(env, page, 'audit log');
    await context.close();

    // bug 5: in Czech the records read in Czech, with provider names, never provider keys
    const cs = await newPage(env, { lang: 'cs' });
    await adminPage(env, cs.page);
    await cs.page.getByRole('link', { name: 'Záznam změn' }).click();
    await expect
      .poll(() => cs.page.locator('.audit').textContent())
      .toContain('Zamčeno komunitní hodnocení: Gamma Streams');
    const text = (await cs.page.locator('.audit').textContent()) ?? '';
    expect(text).toContain('přidán do týmu Gamma Team jako hodnotitel');
    expect(text).not.toContain('provider_a');
    expect(
      (await cs.page.locator('.audit strong').allTextContents()).filter((title) => rawKey.test(title)),
    ).toEqual([]);
    await cs.context.close();
  });

  it('remembers the language and follows dark mode; works at phone width without sideways scrolling', async () => {
    const { page, context } = await newPage(env, { phone: true, dark: true });
    await page.goto(env.base + '/');
    await page.locator('.menu summary').click();
    await page.getByLabel('Jazyk').selectOption('en');
    await page.getByRole('heading', { name: 'Ranking' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Ranking' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(18, 17, 24)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'ranking-phone-dark');
    await page.locator('.ranking .name').first().click();
    await page.locator('.radar svg').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'streamer-phone-dark');
    await axe(env, page, 'phone streamer');
    await context.close();

    const light = await newPage(env, { phone: true, lang: 'cs' });
    await light.page.goto(env.base + '/#/suggest');
    await light.page.getByRole('heading', { name: 'Navrhnout streamera' }).waitFor();
    // An empty name is refused by the browser in the page's language (lib/field-checks.ts), until typed.
    await light.page.getByRole('button', { name: 'Odeslat návrh' }).click();
    const name = light.page.getByLabel('Jméno streamera');
    expect(await name.evaluate((i: HTMLInputElement) => i.validationMessage)).toBe(cs['field.fill']);
    expect(await name.evaluate((i) => i === document.activeElement)).toBe(true);
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await name.fill('Někdo');
    expect(await name.evaluate((i: HTMLInputElement) => i.validationMessage)).toBe('');
    expect(await name.getAttribute('aria-invalid')).toBe(null);
    await name.fill('');
    expect(await light.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(light.page, 'suggest-phone');
    await light.context.close();
  });

  it('serves hashed assets compressed with long-lived cache headers, and the page with no-cache', async () => {
    const index = await fetch(env.base + '/', { headers: { 'accept-encoding': 'br' } });
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const html = await index.text();
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(env.base + js, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('content-security-policy')).toContain("object-src 'none'");
    const again = await fetch(env.base + js, { headers: { 'if-none-match': asset.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
  it('bug 7: the LIVE badge is readable in dark mode (contrast at least 4.5:1)', async () => {
    const { page, context } = await newPage(env, { dark: true });
    await page.goto(env.base + '/');
    const badge = page.locator('.badge.live').first();
    await badge.waitFor();
    const [fg, bg] = await badge.evaluate((el) => {
      const s = getComputedStyle(el);
      return [s.color, s.backgroundColor];
    });
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
    await axe(env, page, 'dark ranking');
    await context.close();
  });
});
