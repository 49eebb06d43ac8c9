import { describe, expect, it } from 'vitest';
import { axe, fillScores, pageAs, runBrowser, shot, useBrowser } from './browser.ts';

/** A week of the raters and team owners (stop 98's walk). */
describe.runIf(runBrowser(import.meta.url))('raters and team owners', () => {
  const env = useBrowser();

  /** A team for the streamer named, its owner `owner` and a rater `rater` (both on Twitch). */
  async function team(name: string, streamer: string, owner: string, rater: string) {
    const admin = await env.t.sharedAdmin();
    const list = (await admin.get('/api/streamers?all=1')).body as { id: number; name: string }[];
    const streamerId = list.find((s) => s.name === streamer)!.id;
    const made = await admin.post('/api/rater_groups', { name, streamer_id: streamerId });
    expect(made.status, made.text).toBe(201);
    const groupId = (made.body as { id: number }).id;
    const users = {
      owner: await env.t.user({ login: owner, display_name: owner }),
      rater: await env.t.user({ login: rater, display_name: rater }),
    };
    for (const [login, role] of [
      [owner, 'owner'],
      [rater, 'rater'],
    ]) {
      const added = await admin.post('/api/rater_groups?members=1', { group_id: groupId, login, role });
      expect(added.status, added.text).toBe(200);
    }
    return { streamerId, users };
  }

  it("a rater opens their team's streamer, awaiting rating, at its own address and rates it there", async () => {
    const { streamerId, users } = await team('Delta Crew', 'Delta Unrated', 'deltaowner', 'deltarater');
    // Loaded at its address (a reload, a shared link, a new tab): the service rendered it as
    // awaiting rating, which a visitor sees; the team's rater gets the form.
    const { page, context } = await pageAs(env, users.rater, { phone: true, lang: 'en' });
    await page.goto(`${env.base}/s/${streamerId}`);
    await page.getByRole('heading', { name: 'Your rating: Team Delta Crew' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Delta Unrated' }).count()).toBe(1);
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Save my rating' }) });
    await fillScores(form, 7);
    await page.getByRole('button', { name: 'Save my rating' }).click();
    await page.getByText('Your rating was saved.').waitFor();
    await page.getByText(/1 rating from team members · 7\.0 \/ 10/).waitFor();
    await shot(page, 'team-streamer-awaiting-rating');
    await axe(env, page, "team's streamer awaiting rating");
    await context.close();
  });

  it("the owner removes a rater, and the teams' rating loses the rater's rating at once", async () => {
    const { users } = await team('Beta Crew', 'Beta Builder', 'betaowner', 'betarater');
    const rater = await pageAs(env, users.rater, { lang: 'en' });
    await rater.page.goto(`${env.base}/team`);
    const form = rater.page.locator('form', {
      has: rater.page.getByRole('button', { name: 'Save my rating' }),
    });
    await fillScores(form, 4);
    await rater.page.getByRole('button', { name: 'Save my rating' }).click();
    await rater.page.getByText('Your rating was saved.').waitFor();
    await rater.context.close();

    const { page, context } = await pageAs(env, users.owner, { lang: 'en' });
    await page.goto(`${env.base}/team`);
    await page.getByText(/1 rating from team members · 4\.0 \/ 10/).waitFor();
    await page.getByRole('button', { name: 'Remove betarater' }).click();
    // The question says what goes with the membership (a week's walk: the rating went unsaid).
    await page
      .getByRole('dialog')
      .getByText('Remove betarater from the team? Any rating they gave for the team is deleted with it.')
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    // The service deleted the rating with the membership: the panel says so without a reload.
    await page.getByText('No community ratings yet.').waitFor();
    expect(await page.getByText(/rating from team members/).count()).toBe(0);
    expect(await page.locator('.members').innerText()).not.toContain('betarater');
    await shot(page, 'team-rater-removed');
    await context.close();
  });
  it("a rater's typed scores survive a reload and a walk away until saved or discarded", async () => {
    const { users } = await team('Gamma Crew', 'Gamma Streams', 'gammaowner', 'gammarater');
    const { page, context } = await pageAs(env, users.rater, { lang: 'en' });
    await page.goto(`${env.base}/team`);
    const save = page.getByRole('button', { name: 'Save my rating' });
    const form = page.locator('form', { has: save });
    const first = form.locator('input').first();
    await fillScores(form, 6);
    await page.reload();
    await expect.poll(() => first.inputValue()).toBe('6');
    const restored = page.getByText(/Your unsaved changes from .* are back\./);
    await restored.waitFor();
    // Away to the ranking and back: still there.
    await page.getByRole('link', { name: 'Ranking' }).first().click();
    await page.goBack();
    await expect.poll(() => first.inputValue()).toBe('6');
    await page.getByRole('button', { name: 'Discard my changes' }).click();
    expect(await first.inputValue()).toBe('');
    await page.reload();
    await save.waitFor();
    expect(await first.inputValue()).toBe('');
    // Saved: the stored rating, and no draft.
    await fillScores(form, 8);
    await save.click();
    await page.getByText('Your rating was saved.').waitFor();
    // Saved, it is no draft: nothing of it is kept in the browser.
    const drafts = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:')));
    await expect.poll(drafts).toEqual([]);
    await page.reload();
    await expect.poll(() => first.inputValue()).toBe('8');
    expect(await restored.count()).toBe(0);
    await axe(env, page, "a rater's restored draft");
    await context.close();
  });
  it("a team-mate's saved rating shows in the teams' rating when the tab comes back into view", async () => {
    const { users } = await team('Alpha Crew', 'Alpha Gamer', 'alphaowner', 'alpharater');
    const { page, context } = await pageAs(env, users.rater, { lang: 'en' });
    await page.goto(`${env.base}/team`);
    await page.getByText('No community ratings yet.').waitFor();
    const owner = await env.t.signedIn(users.owner);
    const groups = (await owner.get('/api/rater_groups?my=1')).body as { id: number }[];
    const saved = await owner.put('/api/community_ratings', {
      group_id: groups[0]!.id,
      r: { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 },
    });
    expect(saved.status, saved.text).toBe(200);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.getByText(/1 rating from team members · 5\.0 \/ 10/).waitFor();
    await context.close();
  });
});
