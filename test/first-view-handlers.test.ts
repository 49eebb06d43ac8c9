import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';

/**
 * Issue 30, item 15: the page's security policy (`script-src 'self'`) refuses inline event
 * handlers, so the server-rendered first view holds none; Svelte's server renderer writes one
 * (`onerror="this.__e=event"`) for an element with an `onerror`, such as an avatar had.
 */
const t = await useApp();
let id: number;

beforeAll(async () => {
  id = await t.streamer('Pictured', { s: 7, g: 7 });
  await t.db.updateTable('streamers').set({ avatar: 'https://example.com/a.png' }).execute();
  t.app.database.changes.bump();
});

describe('the first view has no inline handlers', () => {
  for (const path of ['/', '/s/ID', '/privacy', '/suggest']) {
    it(`${path}: no on…= attribute`, async () => {
      const res = await fetch(t.url + path.replace('ID', String(id)), { headers: { accept: 'text/html' } });
      const html = await res.text();
      expect(res.status).toBe(200);
      if (path !== '/privacy' && path !== '/suggest') expect(html).toContain('a.png');
      expect(html.match(/<[^>]*\son[a-z]+\s*=[^>]*>/gi) ?? []).toEqual([]);
    });
  }
});
