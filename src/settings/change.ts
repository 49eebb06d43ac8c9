import type { Static } from 'typebox';
import { actorOf, audit } from '../audit/queries.ts';
import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { replaceWebhooks, storedWebhooks } from '../discord/queries.ts';
import {
  cutWebhookUrl,
  isWebhookUrl,
  parseWebhookList,
  type WebhookInput,
  webhookPrefixes,
} from '../discord/webhooks.ts';
import { DomainError, fail } from '../errors.ts';
import { booleanField, truthy } from '../lib/input.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { DISCORD_EVENTS, GUEST_CHALLENGES, GUEST_HOLDS, HOLD_WORDS, holdWordList } from '../shared/rules.ts';
import { operatorInput } from './operator.ts';
import { operatorOf, replaceHoldWords, setSetting } from './queries.ts';
import type { putSchema } from './schemas.ts';

export type SettingsChange = Static<typeof putSchema.body>;

/**
 * Changes the settings the body names (DECISIONS.md: `auth_enabled`, the guests' hold and
 * challenge, the operator, the Discord webhooks), each audited, in one transaction. Webhook
 * URLs never reach the audit log (they are secrets): it names how many and which events.
 */
export async function changeSettings(ctx: AppContext, viewer: Viewer, body: SettingsChange): Promise<void> {
  const { clock } = ctx;
  const { guest_hold, guest_challenge } = body;
  if (
    body.auth_enabled === undefined &&
    body.discord_webhooks === undefined &&
    guest_hold === undefined &&
    guest_challenge === undefined &&
    body.operator_name === undefined &&
    body.operator_contact === undefined &&
    body.hold_words === undefined &&
    body.refuse_repeats === undefined
  ) {
    throw fail('missing_auth_enabled');
  }
  const choice = <W extends string>(field: string, value: unknown, words: readonly W[]): W | null => {
    if (value === undefined || value === null) return null;
    const word = words.find((w) => w === value);
    if (word === undefined) throw new DomainError('invalid_field', { message: `Invalid ${field}` });
    return word;
  };
  const hold = choice('guest_hold', guest_hold, GUEST_HOLDS);
  const challenge = choice('guest_challenge', guest_challenge, GUEST_CHALLENGES);
  const operator = operatorInput(body);
  const words = body.hold_words === undefined ? null : holdWordsInput(body.hold_words);
  const repeats = body.refuse_repeats === undefined ? undefined : booleanField(body.refuse_repeats);
  if (body.refuse_repeats !== undefined && repeats === undefined) {
    throw new DomainError('invalid_field', { message: 'Invalid refuse_repeats' });
  }
  const webhooks = body.discord_webhooks === undefined ? null : parseWebhookList(body.discord_webhooks);
  const prefixes = webhookPrefixes(ctx.config.discordApiUrl);
  const value = truthy(body.auth_enabled) ? 'true' : 'false';
  const now = clock.now().toISOString();
  await writeTransaction(ctx.database, async (trx) => {
    const actor = actorOf(viewer, clock.now());
    if (body.auth_enabled !== undefined) {
      await setSetting(trx, 'auth_enabled', value);
      await audit(trx, actor, {
        action: 'settings.update',
        params: { key: 'auth_enabled', value: value === 'true' },
      });
    }
    if (hold !== null) {
      await setSetting(trx, 'guest_hold', hold);
      await audit(trx, actor, { action: 'settings.update', params: { key: 'guest_hold', value: hold } });
    }
    if (challenge !== null) {
      await setSetting(trx, 'guest_challenge', challenge);
      await audit(trx, actor, {
        action: 'settings.update',
        params: { key: 'guest_challenge', value: challenge },
      });
    }
    if (repeats !== undefined) {
      await setSetting(trx, 'refuse_repeats', String(repeats));
      await audit(trx, actor, {
        action: 'settings.update',
        params: { key: 'refuse_repeats', value: repeats },
      });
    }
    if (words !== null) {
      await replaceHoldWords(trx, words);
      await audit(trx, actor, { action: 'settings.words', params: { words } });
    }
    if (operator.name !== undefined || operator.contact !== undefined) {
      if (operator.name !== undefined) await setSetting(trx, 'operator_name', operator.name);
      if (operator.contact !== undefined) await setSetting(trx, 'operator_contact', operator.contact);
      // The entry names the operator as now set: both texts are public on the privacy page.
      const set = await operatorOf(trx);
      await audit(trx, actor, {
        action: 'settings.operator',
        params: { name: set.operator_name, contact: set.operator_contact },
      });
    }
    if (webhooks === null) return;
    // Each item names a stored webhook (its full URL, or the cut one an answer showed) or a new URL.
    const stored = await storedWebhooks(trx);
    const resolved = webhooks.map((input) => {
      const same = stored.find((w) => w.url === input.url);
      if (same) return { input, id: same.id, reenable: true };
      const shown = stored.find((w) => cutWebhookUrl(w.url) === input.url);
      if (shown) return { input, id: shown.id, reenable: false };
      if (!isWebhookUrl(input.url, prefixes)) throw fail('invalid_webhook_url');
      return { input, id: null, reenable: false };
    });
    await replaceWebhooks(trx, mergeRepeats(resolved), now);
    // The audit record names how many and which events, never a URL (a secret).
    await audit(trx, actor, {
      action: 'settings.discord',
      params: { webhooks: resolved.map((r) => ({ id: r.id, events: r.input.events })) },
    });
  });
}

/**
 * `hold_words` as DECISIONS.md "Words and repeats" takes it: at most 200 strings, each trimmed,
 * 2 to 60 characters; a word given twice is kept once. Else 400 `invalid_word_list`.
 */
function holdWordsInput(value: unknown): string[] {
  if (!Array.isArray(value) || value.length > HOLD_WORDS.words) throw fail('invalid_word_list');
  const list = holdWordList(value.map((item) => (typeof item === 'string' ? item : '')));
  if (list.bad.length > 0) throw fail('invalid_word_list');
  return list.words;
}

/** The same webhook listed twice is one webhook with both lists of events. */
function mergeRepeats<T extends { input: WebhookInput; id: number | null }>(list: T[]): T[] {
  const byKey = new Map<string, T>();
  for (const item of list) {
    const key = item.id === null ? `url:${item.input.url}` : `id:${item.id}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, item);
    else {
      const both = [...seen.input.events, ...item.input.events];
      seen.input.events = DISCORD_EVENTS.filter((e) => both.includes(e));
    }
  }
  return [...byKey.values()];
}
