import { createPublicKey } from 'node:crypto';

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
