import type { PushConfig } from '../config/push.ts';
import type { Db } from '../db/schema.ts';
import { newP256KeyPair } from '../lib/p256.ts';

/** The VAPID key pair (base64url) that signs every message (RFC 8292). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const KEY = 'vapid_keys';

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set; otherwise the pair kept in `secrets`,
 * made the first time. Insert-or-ignore, then read: of instances that start
 * together, the first insert wins and every one of them reads that pair.
 */
export async function vapidKeys(db: Db, config: PushConfig): Promise<VapidKeys> {
  if (config.vapidKeys) return { ...config.vapidKeys };
  const kept = async () => {
    const row = await db.selectFrom('secrets').select('value').where('key', '=', KEY).executeTakeFirst();
    return row ? (JSON.parse(row.value) as VapidKeys) : null;
  };
  let pair = await kept();
  if (!pair) {
    const fresh = newP256KeyPair();
    await db
      .insertInto('secrets')
      .values({
        key: KEY,
        value: JSON.stringify({ publicKey: fresh.publicKey, privateKey: fresh.privateKey }),
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    pair = await kept();
  }
  if (!pair) throw new Error('the VAPID key pair was not kept');
  return { publicKey: pair.publicKey, privateKey: pair.privateKey };
}
