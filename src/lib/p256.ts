import { createPublicKey, generateKeyPairSync } from 'node:crypto';

/**
 * A new P-256 key pair as VAPID keys are written (RFC 8292, base64url): the public key as an
 * uncompressed point (65 bytes), the private key as its 32-byte scalar. Made with Node's own
 * crypto, so a first start does not load web-push (src/lib/lazy-modules.ts) for it.
 */
export function newP256KeyPair(): { publicKey: string; privateKey: string } {
  // A JWK writes x, y and d at the curve's full length (RFC 7518, 6.2.1 and 6.2.2).
  const { x, y, d } = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  if (!x || !y || !d) throw new Error('a P-256 key without its coordinates');
  const point = Buffer.concat([
    Buffer.from([0x04]),
    Buffer.from(x, 'base64url'),
    Buffer.from(y, 'base64url'),
  ]);
  return { publicKey: point.toString('base64url'), privateKey: d };
}

/**
 * Whether base64url text is an uncompressed P-256 point (65 bytes, 0x04, x and y on the curve):
 * a device's `p256dh`, or VAPID_PUBLIC_KEY. Node's key parser checks the curve; nothing here
 * encrypts or signs (web-push does).
 */
export function isP256Point(text: string): boolean {
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: bytes.subarray(1, 33).toString('base64url'),
        y: bytes.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}
