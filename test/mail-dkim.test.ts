import { createHash, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import { type Received, startFakeSmtp } from './helpers/fake-smtp.ts';

// DECISIONS.md "Fifth wave" → "E-mail": optional DKIM signing (MAIL_DKIM_DOMAIN,
// MAIL_DKIM_SELECTOR, MAIL_DKIM_KEY_FILE). What arrives is checked as a receiving server
// checks it (RFC 6376, relaxed canonicalization), with the public half of the test's key.
const smtp = await startFakeSmtp();
afterAll(() => smtp.close());
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const keyFile = join(mkdtempSync(join(tmpdir(), 'dkim-')), 'mail.pem');
writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
const t = await useApp({
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Hodnocení <noreply@example.org>',
  MAIL_DKIM_DOMAIN: 'example.org',
  MAIL_DKIM_SELECTOR: 'mail',
  MAIL_DKIM_KEY_FILE: keyFile,
});
t.clock.freeze();

/** A header as relaxed canonicalization writes it: `name:value`, its white space folded. */
const relaxedHeader = (line: string) => {
  const colon = line.indexOf(':');
  const value = line
    .slice(colon + 1)
    .replace(/\r\n(?=[ \t])/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `${line.slice(0, colon).trim().toLowerCase()}:${value}`;
};

const relaxedBody = (body: string) => {
  const lines = body.split('\r\n').map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.length === 0 ? '' : lines.join('\r\n') + '\r\n';
};

/** Checks a message's DKIM-Signature; answers its tags. */
function checkDkim(m: Received): Record<string, string> {
  const cut = m.raw.indexOf('\r\n\r\n');
  const fields = m.raw.slice(0, cut).split(/\r\n(?![ \t])/);
  const signature = fields.find((f) => /^dkim-signature:/i.test(f));
  if (!signature) throw new Error('no DKIM-Signature');
  const tags = Object.fromEntries(
    relaxedHeader(signature)
      .slice('dkim-signature:'.length)
      .split(';')
      .map((tag) => tag.trim())
      .filter(Boolean)
      .map((tag) => [tag.slice(0, tag.indexOf('=')), tag.slice(tag.indexOf('=') + 1).replace(/\s+/g, '')]),
  );
  expect(tags.c).toBe('relaxed/relaxed');
  const bodyHash = createHash('sha256')
    .update(relaxedBody(m.raw.slice(cut + 4)))
    .digest('base64');
  expect(tags.bh, 'the body as it arrived is the body that was signed').toBe(bodyHash);
  // The signed headers, each the last one of its name not used yet, then the signature's own
  // field with an empty b= and no line end.
  const left = [...fields];
  const signed = (tags.h ?? '').split(':').map((name) => {
    const at = left.findLastIndex((f) => f.toLowerCase().startsWith(`${name.toLowerCase()}:`));
    return at < 0 ? '' : relaxedHeader(left.splice(at, 1)[0]!) + '\r\n';
  });
  const own = relaxedHeader(signature).replace(/b=[^;]*$/, 'b=');
  const ok = verify(
    'sha256',
    Buffer.from(signed.join('') + own),
    publicKey,
    Buffer.from(tags.b ?? '', 'base64'),
  );
  expect(ok, 'the signature verifies with the selector’s public key').toBe(true);
  return tags;
}

it('every message arrives signed for the domain and selector, its body and headers as they were signed', async () => {
  const user = await t.user({ login: `dkim${process.pid}`, display_name: 'Signed' });
  const c = await t.signedIn(user);
  const address = `dkim.${process.pid}@example.org`;
  expect((await c.put('/api/account/email', { email: address, lang: 'cs' })).status).toBe(200);
  for (let i = 0; i < 20 && smtp.to(address).length === 0; i++) {
    await t.app.mail!.look();
    await t.app.mail!.idle();
    t.clock.advance(1000);
  }
  const [message] = smtp.to(address);
  if (!message) throw new Error('the confirmation did not arrive');
  const tags = checkDkim(message);
  expect(tags).toMatchObject({ a: 'rsa-sha256', d: 'example.org', s: 'mail' });
  expect(tags.h?.toLowerCase().split(':')).toEqual(expect.arrayContaining(['from', 'to', 'subject']));
});
