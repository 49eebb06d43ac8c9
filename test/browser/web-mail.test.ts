import { afterAll, describe, expect, it } from 'vitest';
import { startFakeSmtp } from '../helpers/fake-smtp.ts';
import { MAIL_LIMITS } from '../../src/shared/mail.ts';
import { axe, newPage, runBrowser, shot, signIn, useBrowser } from './browser.ts';

/**
 * Issue 42, the page: the account page's e-mail block at 375 px (address, pending state, the
 * confirmation link, kinds and digest) and the unsubscribe page a message links to.
 */
const smtp = await startFakeSmtp();
afterAll(() => smtp.close());

describe.runIf(runBrowser(import.meta.url))('e-mail on the account page', () => {
  const env = useBrowser(undefined, () => ({ SMTP_URL: smtp.url, MAIL_FROM: 'no-reply@example.org' }));

  it('phone: set an address, confirm it by its link, choose kinds and the digest; the unsubscribe page', async () => {
    const { page, context } = await newPage(env, { phone: true, lang: 'en', dark: true });
    await signIn(env, page, 'provider_a');
    await page.goto(`${env.base}/your-data`);
    await page.getByRole('heading', { name: 'E-mail' }).waitFor();
    await page.getByText('No address yet.').waitFor();
    await page.getByLabel('E-mail address').fill('viewer@example.org');
    await page.getByRole('button', { name: 'Send a confirmation link' }).click();
    await page.getByText(/We sent a confirmation link/).waitFor();
    await axe(env, page, 'mail block pending');
    await shot(page, 'mail-pending-phone');

    await expect
      .poll(async () => {
        await env.t.app.mail!.look();
        await env.t.app.mail!.idle();
        return smtp.to('viewer@example.org').length;
      })
      .toBe(1);
    const message = smtp.to('viewer@example.org')[0]!;
    const link = /https?:\/\/\S+\/api\/account\/email\/confirm\?token=\S+/.exec(message.text)![0];
    await page.goto(link);
    await page.getByRole('heading', { name: 'Address confirmed' }).waitFor();
    await axe(env, page, 'mail confirmed page');

    await page.goto(`${env.base}/your-data`);
    await page.getByText('Confirmed: viewer@example.org').waitFor();
    await page.getByLabel('A reply to my comment').check();
    await page.getByLabel('Weekly digest (Monday 08:00)').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect(await (await page.request.get(`${env.base}/api/account/mail`)).json()).toEqual({
      kinds: ['reply'],
      digest: 'weekly',
    });
    await axe(env, page, 'mail block confirmed');
    await shot(page, 'mail-confirmed-phone');

    const unsubscribe = /^<([^>]+)>$/.exec(message.headers['list-unsubscribe']!)![1]!;
    await page.goto(unsubscribe);
    await page.getByRole('heading', { name: 'Unsubscribe' }).waitFor();
    await axe(env, page, 'unsubscribe page');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByText(/Done: these messages will not be sent/).waitFor();
    // The privacy page of a site that sends e-mail says what is kept of an address, and for how long:
    // read once the page has the site's answer (the operator's name comes with it).
    await (await env.t.sharedAdmin()).put('/api/settings', { operator_name: 'Mail Club' });
    await page.goto(`${env.base}/privacy`);
    await page.getByText('This site is run by Mail Club.').waitFor();
    const kept = `(to which address, what it told) is kept ${MAIL_LIMITS.sentKeptDays} days`;
    expect(await page.getByText(kept, { exact: false }).count()).toBe(1);
    await context.close();
  });
});
