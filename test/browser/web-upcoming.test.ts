import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.ts';
import { R } from '../helpers/streamers.ts';
import {
  axe,
  countDateFormats,
  type Env,
  newPage,
  type PageOptions,
  runBrowser,
  shot,
  useBrowser,
} from './browser.ts';

/**
 * Issue 43 on the page (DECISIONS.md "Schedules", "A line for the chat"): the Upcoming page by
 * day in the visitor's time zone with live streamers on top, the next stream on a streamer page
 * ("in 3 hours"), the calendar links, the Kick schedule editor and the chat bots' commands, on a
 * 375 px phone and a desktop. The app's clock is set to a midnight UTC a day or two ahead (09:00
 * in Tokyo), and each page's clock to the app's: every time shown follows from the seeded times.
 */
const PHONE = 375;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The app's "now" when seeded: a midnight UTC ahead of the wall clock (so the browser keeps its cookies). */
let t0 = 0;
let planner = 0;
let onAir = 0;
let keeper = 0;
let keeperUser: TestUser;

const at = (hours: number) => new Date(t0 + hours * HOUR).toISOString();

async function seed(t: TestApp) {
  t0 = (Math.floor(Date.now() / DAY) + 2) * DAY;
  t.clock.offset = t0 - Date.now();
  const admin = await t.sharedAdmin();
  const kick = async (name: string, channel: string, extra: Record<string, unknown> = {}) => {
    const res = await admin.post('/api/streamers?admin=1', {
      name,
      platform: 'provider_b',
      kick_name: channel,
    });
    expect(res.status, res.text).toBe(201);
    const id = res.body.id as number;
    const rated = await admin.put(`/api/streamers?id=${id}`, { r: R(7), kick_name: channel, ...extra });
    expect(rated.status, rated.text).toBe(200);
    return id;
  };
  const keep = async (id: number, segments: { start: string; end: string; title: string }[]) => {
    const res = await admin.put(`/api/streamers?id=${id}&schedule=1`, { segments });
    expect(res.status, res.text).toBe(200);
  };
  planner = await kick('Kick Planner', 'kickplanner');
  onAir = await kick('Kick On Air', 'kickonair', { status: 'live', game: 'Chess', title: 'Blitz' });
  keeper = await kick('Kick Keeper', 'kickkeeper');
  keeperUser = await t.user({ provider: 'provider_b', login: 'kickkeeper', display_name: 'Kick Keeper' });
  // 09:00 in Tokyo is t0: 12:00 today, midnight (tomorrow there, 15:00 today in UTC), noon tomorrow.
  await keep(planner, [
    { start: at(3), end: at(5), title: 'Morning show' },
    { start: at(15), end: at(17), title: 'Midnight special' },
    { start: at(27), end: at(30), title: 'Day two' },
  ]);
  // On the air since an hour before t0, as scheduled; its next stream is not live yet.
  await keep(onAir, [
    { start: at(-1), end: at(1), title: 'Early blitz' },
    { start: at(30), end: at(32), title: 'Rematch' },
  ]);
  // And one a month ahead: beyond the 14 days `?schedule=1` shows, kept by the editor's save.
  await keep(keeper, [
    { start: at(48), end: at(50), title: 'Keeper night' },
    { start: at(48 + 30 * 24), end: at(50 + 30 * 24), title: 'Far ahead' },
  ]);
}

/** A page whose clock is the app's, signed in as `user` if given. */
async function pageAt(env: Env, opts: PageOptions, user: TestUser | null = null) {
  const opened = await newPage(env, opts);
  if (user) {
    const sid = (await env.t.signedIn(user)).cookies.get('sid')!;
    await opened.context.addCookies([{ name: 'sid', value: sid, url: env.base }]);
  }
  await opened.page.clock.setFixedTime(env.t.clock.now());
  return opened;
}

/** The element's box lies inside the phone's width. */
async function onScreen(page: Page, selector: string, label: string) {
  const box = await page.locator(selector).first().boundingBox();
  expect(box, label).not.toBeNull();
  expect(box!.x, label).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, label).toBeLessThanOrEqual(PHONE);
}

/** Each day's heading and the rows under it, as shown. */
const days = (page: Page) =>
  page.locator('section.upcoming section.card').evaluateAll((cards) =>
    cards.map((card) => ({
      heading: card.querySelector('h2')?.textContent?.trim() ?? '',
      rows: [...card.querySelectorAll('li')].map((li) => (li.textContent ?? '').replace(/\s+/g, ' ').trim()),
    })),
  );

describe.runIf(runBrowser(import.meta.url))(
  'issue 43: upcoming streams, the next stream, the editor and the chat line',
  () => {
    const env = useBrowser(seed);

    it('the Upcoming page on a 375 px phone in Tokyo: live on top, then by day in Tokyo time, and the calendar', async () => {
      const { page, context } = await pageAt(env, { phone: true, lang: 'en', timezone: 'Asia/Tokyo' });
      const formats = await countDateFormats(context);
      await page.goto(`${env.base}/`);
      // The header's link fits the phone, whole.
      const link = page.locator('header nav').getByRole('link', { name: 'Upcoming', exact: true });
      await link.waitFor();
      await onScreen(page, 'header nav a[href="/upcoming"]', 'the Upcoming link');
      expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      expect(await page.locator('header nav').evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(
        true,
      );
      await link.click();
      await page.getByRole('heading', { name: 'Upcoming streams', level: 1 }).waitFor();
      expect(await page.title()).toContain('Upcoming streams');
      await expect.poll(() => days(page).then((d) => d.length)).toBe(4);
      const [live, today, tomorrow, later] = await days(page);
      expect(live).toEqual({
        heading: 'Live now',
        rows: [expect.stringMatching(/^Kick On Air LIVE .*Blitz · Chess$/)],
      });
      expect(today?.heading).toMatch(/^Today · \w+day \d+ \w+$/);
      expect(today?.rows).toEqual([
        expect.stringMatching(/^08:00–10:00 Kick On Air live now Early blitz$/),
        '12:00–14:00 Kick Planner Morning show',
      ]);
      // Midnight in Tokyo is tomorrow there (it is 15:00 UTC today).
      expect(tomorrow?.heading).toMatch(/^Tomorrow · /);
      expect(tomorrow?.rows).toEqual([
        '00:00–02:00 Kick Planner Midnight special',
        '12:00–15:00 Kick Planner Day two',
        // Live now, but this is its next stream: no mark.
        '15:00–17:00 Kick On Air Rematch',
      ]);
      // The day after: named by its weekday and date.
      expect(later).toEqual({
        heading: expect.stringMatching(/^\w+day \d+ \w+$/),
        rows: ['09:00–11:00 Kick Keeper Keeper night'],
      });
      expect(await page.getByText(/Times are in your time zone \(Asia\/Tokyo\)/).count()).toBe(1);
      // The days' headings have words, which take a formatter: one for all of them.
      const made = (await formats.made(page)).filter((f) => f !== '[]');
      expect(made.filter((f) => f.includes('"weekday":"long"'))).toHaveLength(1);
      expect(made.filter((f, i) => made.indexOf(f) !== i)).toEqual([]);

      await page.getByText('Every scheduled stream in your calendar').click();
      const origin = new URL(env.base);
      expect(
        await page.getByRole('link', { name: 'Subscribe in your calendar app' }).getAttribute('href'),
      ).toBe(`webcal://${origin.host}/schedule.ics`);
      const file = page.getByRole('link', { name: 'Download the .ics file' });
      expect(await file.getAttribute('href')).toBe(`${env.base}/schedule.ics`);
      expect(await file.getAttribute('download')).not.toBeNull();
      expect(await page.getByLabel(/paste this address/).inputValue()).toBe(`${env.base}/schedule.ics`);
      const ics = await env.t.client().get('/schedule.ics');
      expect(ics.headers.get('content-type')).toContain('text/calendar');
      expect(ics.text).toContain('SUMMARY:Kick Planner');
      await onScreen(page, 'section.upcoming', 'the Upcoming page');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);
      await shot(page, 'upcoming-phone');
      await axe(env, page, 'Upcoming, phone');
      await context.close();
    });

    it('the Upcoming page on a desktop in UTC and Czech: the same streams under the days they fall on in UTC', async () => {
      const { page, context } = await pageAt(env, { lang: 'cs', timezone: 'UTC', dark: true });
      await page.goto(`${env.base}/upcoming`);
      await page.getByRole('heading', { name: 'Program streamů', level: 1 }).waitFor();
      await expect.poll(() => days(page).then((d) => d.length)).toBe(4);
      const [live, today, tomorrow, later] = await days(page);
      expect(live?.heading).toBe('Právě živě');
      // The stream on the air since 23:00 yesterday is under today.
      expect(today?.heading).toMatch(/^Dnes · /);
      expect(today?.rows).toEqual([
        expect.stringMatching(/^23:00–01:00 Kick On Air právě živě Early blitz$/),
        '03:00–05:00 Kick Planner Morning show',
        '15:00–17:00 Kick Planner Midnight special',
      ]);
      expect(tomorrow?.heading).toMatch(/^Zítra · /);
      expect(tomorrow?.rows).toEqual(['03:00–06:00 Kick Planner Day two', '06:00–08:00 Kick On Air Rematch']);
      // The day after tomorrow: its weekday, capitalized as a heading.
      expect(later).toEqual({
        heading: expect.stringMatching(/^\p{Lu}\p{Ll}+ \d+\. /u),
        rows: ['00:00–02:00 Kick Keeper Keeper night'],
      });
      await shot(page, 'upcoming-desktop-cs');
      await axe(env, page, 'Upcoming, desktop, Czech, dark');
      await context.close();
    });

    it('a follower keeps to the streamers they follow, and finds them on the account page (a week of visitors)', async () => {
      const fan = await env.t.user();
      const c = await env.t.signedIn(fan);
      expect((await c.put(`/api/follows?streamer_id=${planner}`, { follow: true })).status).toBe(200);
      const { page, context } = await pageAt(env, { lang: 'en', timezone: 'UTC' }, fan);
      await page.goto(`${env.base}/upcoming`);
      await expect.poll(() => days(page).then((d) => d.length)).toBe(4);
      await page.getByLabel('Only streamers I follow').check();
      await expect.poll(() => days(page).then((d) => d.length)).toBe(3);
      const rows = (await days(page)).flatMap((d) => d.rows);
      expect(rows).toHaveLength(3);
      expect(rows.every((r) => r.includes('Kick Planner'))).toBe(true);
      // The choice stays in this browser.
      await page.reload();
      await expect.poll(() => days(page).then((d) => d.length)).toBe(3);
      expect(await page.getByLabel('Only streamers I follow').isChecked()).toBe(true);
      await axe(env, page, 'Upcoming, only followed');
      await page.goto(`${env.base}/your-data`);
      const list = page.locator('section', {
        has: page.getByRole('heading', { name: 'Streamers you follow' }),
      });
      await list.getByRole('link', { name: 'Kick Planner' }).waitFor();
      await list.getByRole('button', { name: 'Following: Kick Planner' }).click();
      await list.getByRole('button', { name: 'Follow: Kick Planner' }).waitFor();
      expect((await c.get('/api/follows')).body.streamer_ids).toEqual([]);
      await axe(env, page, 'account page, followed streamers');
      await shot(page, 'account-followed');
      await context.close();
    });

    it.each([
      // The month by name in English ("Thu 3 Dec", never "03/12"), by number in Czech ("čt 3. 12.").
      {
        phone: true,
        lang: 'en' as const,
        timezone: 'Asia/Tokyo',
        when: /^\w{3} \d{1,2} \w{3}, 12:00 /,
        until: 'in 3 hours',
      },
      {
        phone: false,
        lang: 'cs' as const,
        timezone: 'UTC',
        when: /^\p{L}{2} \d{1,2}\. \d{1,2}\. 03:00 /u,
        until: 'za 3 hodiny',
      },
    ])(
      'a streamer page shows the next stream in the visitor’s zone and how soon, with its calendar (%o)',
      async (opts) => {
        const { page, context } = await pageAt(env, opts);
        await page.goto(`${env.base}/s/${planner}`);
        const line = page.locator('.next-stream p');
        await line.waitFor();
        expect(await line.locator('time').getAttribute('datetime')).toBe(at(3));
        expect(await line.locator('time').textContent()).toMatch(opts.when);
        expect(await line.textContent()).toContain(opts.until);
        await page.locator('.next-stream summary').click();
        const file = page.locator('.next-stream a[download]');
        expect(await file.getAttribute('href')).toBe(`${env.base}/s/${planner}/schedule.ics`);
        expect(await page.locator('.next-stream a[href^="webcal:"]').getAttribute('href')).toBe(
          `webcal://${new URL(env.base).host}/s/${planner}/schedule.ics`,
        );
        if (opts.phone) await onScreen(page, '.next-stream', 'the next stream');
        // A scheduled stream that has begun is not "next … now".
        await page.goto(`${env.base}/s/${onAir}`);
        const begun = page.locator('.next-stream p');
        await begun.waitFor();
        expect(await begun.locator('time').getAttribute('datetime')).toBe(at(-1));
        expect(await begun.textContent()).toMatch(
          opts.lang === 'en' ? /^\s*Scheduled since:/ : /^\s*Naplánováno od:/,
        );
        await page.goto(`${env.base}/s/${planner}`);
        await line.waitFor();
        // Nobody who does not speak for it gets the editor or the chat commands.
        expect(await page.locator('.schedule-editor, .chat-line').count()).toBe(0);
        await shot(page, `next-stream-${opts.phone ? 'phone' : 'desktop'}`);
        await axe(env, page, `next stream, ${opts.phone ? 'phone' : 'desktop'}`);
        await context.close();
      },
    );

    it('the Kick streamer edits their schedule on a phone: the row that breaks the rule marked, then saved and shown as the next stream', async () => {
      const { page, context } = await pageAt(
        env,
        { phone: true, lang: 'en', timezone: 'Asia/Tokyo' },
        keeperUser,
      );
      await page.goto(`${env.base}/s/${keeper}`);
      const editor = page.locator('section.schedule-editor');
      await editor.getByRole('heading', { name: 'Stream schedule' }).waitFor();
      // Both streams, the one a month ahead too (a browser walk, stop 82: a save dropped it unseen).
      await expect.poll(() => editor.locator('fieldset').count()).toBe(2);
      // Shown in Tokyo time: t0 + 48 h is 09:00 there.
      expect(await editor.getByLabel('Starts').first().inputValue()).toMatch(/T09:00$/);
      expect(await editor.getByLabel('Title (optional)').first().inputValue()).toBe('Keeper night');
      expect(await editor.getByLabel('Title (optional)').nth(1).inputValue()).toBe('Far ahead');
      await editor.getByRole('button', { name: 'Add a stream' }).click();
      const second = editor.locator('fieldset').nth(2);
      // The keyboard is on the new row, not left on Add.
      const focused = (field: Locator) => field.evaluate((f) => f === document.activeElement);
      await expect.poll(() => focused(second.getByLabel('Starts'))).toBe(true);
      // A week after the first; an end before the start breaks the service's rule
      // (shared/schedules.ts), which the editor applies first: the row says what is wrong.
      expect(await second.getByLabel('Starts').inputValue()).toMatch(/T09:00$/);
      const start = await second.getByLabel('Starts').inputValue();
      // Every save the page sends (a refused row is not sent at all).
      const saves: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT' && r.url().includes('schedule=1')) saves.push(r.url());
      });
      await second.getByLabel('Ends').fill(start.replace('T09:00', 'T08:00'));
      await editor.getByRole('button', { name: 'Save the schedule' }).click();
      await editor.getByRole('alert').filter({ hasText: 'Some streams need a change' }).waitFor();
      expect(await second.locator('.field-error').textContent()).toBe('It must end after it starts.');
      // The keyboard goes to the row the save was refused for.
      await expect.poll(() => focused(second.getByLabel('Starts'))).toBe(true);
      expect(await second.getByLabel('Ends').getAttribute('aria-invalid')).toBe('true');
      expect(await editor.locator('fieldset').first().locator('.field-error').count()).toBe(0);
      // A stream longer than a day is marked too.
      // A wall time moved by hours (the field's value read as if in UTC, which keeps it a wall time).
      const later = (local: string, hours: number) =>
        new Date(Date.parse(`${local}:00Z`) + hours * HOUR).toISOString().slice(0, 16);
      await second.getByLabel('Ends').fill(later(start, 25));
      await editor.getByRole('button', { name: 'Save the schedule' }).click();
      await expect
        .poll(() => second.locator('.field-error').textContent())
        .toBe('A stream is at most 24 hours long.');
      await axe(env, page, 'schedule editor refusal, phone');
      const before = (await env.t.client().get(`/api/streamers?id=${keeper}&schedule=1`)).body;
      expect(before.segments).toHaveLength(1);
      // Fixed: an earlier stream tomorrow (Tokyo), two hours long. Editing the row takes its problem
      // away until the next save (stop 71's walk: a problem the row no longer had stayed on it).
      await second.getByLabel('Starts').fill(tomorrowAt('20:00'));
      await expect.poll(() => second.locator('.field-error').count()).toBe(0);
      expect(await editor.getByRole('alert').count()).toBe(0);
      await second.getByLabel('Ends').fill(tomorrowAt('22:00'));
      await second.getByLabel('Title (optional)').fill('Late show');
      // A reload before saving loses no edit: the rows come back as they were typed.
      await page.reload();
      await editor.getByText(/Your unsaved changes from .* are back\./).waitFor();
      expect(await second.getByLabel('Title (optional)').inputValue()).toBe('Late show');
      await editor.getByRole('button', { name: 'Save the schedule' }).click();
      await editor.getByRole('status').filter({ hasText: 'The schedule is saved.' }).waitFor();
      expect(saves).toHaveLength(1);
      const drafts = () =>
        page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:')));
      await expect.poll(drafts).toEqual([]);
      const after = (await env.t.client().get(`/api/streamers?id=${keeper}&schedule=1`)).body;
      expect(after.segments.map((s: { title: string }) => s.title)).toEqual(['Late show', 'Keeper night']);
      const ahead = (await env.t.client().get(`/api/streamers?id=${keeper}&schedule=1&ahead=1`)).body;
      expect(ahead.segments.map((s: { title: string }) => s.title)).toEqual([
        'Late show',
        'Keeper night',
        'Far ahead',
      ]);
      expect(after.segments[0].start).toBe(at(35)); // 20:00 in Tokyo tomorrow is 11:00 UTC
      // The page shows the new next stream.
      await page.locator('.next-stream time').filter({ hasText: '20:00' }).waitFor();
      await onScreen(page, 'section.schedule-editor', 'the editor');
      await shot(page, 'schedule-editor-phone');
      await axe(env, page, 'schedule editor, phone');
      await context.close();
    });

    it('the streamer gets the commands for Nightbot, StreamElements and Fossabot and what they answer (desktop)', async () => {
      const { page, context } = await pageAt(env, { lang: 'cs' }, keeperUser);
      await page.goto(`${env.base}/s/${keeper}`);
      const panel = page.locator('section.chat-line');
      await panel.getByRole('heading', { name: 'Hodnocení ve vašem chatu' }).waitFor();
      const url = `${env.base}/bot/kick/kickkeeper.txt`;
      expect(await panel.getByLabel('Nightbot', { exact: true }).inputValue()).toBe(
        `!commands add !hodnoceni $(urlfetch ${url})`,
      );
      expect(await panel.getByLabel('StreamElements', { exact: true }).inputValue()).toBe(
        `!command add hodnoceni \${customapi.${url}}`,
      );
      expect(await panel.getByLabel('Fossabot', { exact: true }).inputValue()).toBe(
        `!addcmd !hodnoceni $(customapi ${url})`,
      );
      const line = (await env.t.client().get('/bot/kick/kickkeeper.txt')).text;
      await expect.poll(() => panel.locator('q').textContent()).toBe(line);
      await panel.getByLabel('Jazyk odpovědi').selectOption('en');
      expect(await panel.getByLabel('Nightbot', { exact: true }).inputValue()).toBe(
        `!commands add !rating $(urlfetch ${url}?lang=en)`,
      );
      const english = (await env.t.client().get('/bot/kick/kickkeeper.txt?lang=en')).text;
      await expect.poll(() => panel.locator('q').textContent()).toBe(english);
      await shot(page, 'chat-line-desktop');
      await axe(env, page, 'chat line, desktop');
      await context.close();
    });
  },
);

/** `HH:MM` tomorrow in Tokyo (t0 is 09:00 there), as a `datetime-local` value. */
function tomorrowAt(time: string): string {
  const tokyo = new Date(t0 + 9 * HOUR + DAY).toISOString().slice(0, 10);
  return `${tokyo}T${time}`;
}
