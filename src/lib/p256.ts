import { createECDH, createPublicKey, type ECDH } from 'node:crypto';

/** The byte length of a P-256 scalar (a private key), at which VAPID keys write it. */
const SCALAR_BYTES = 32;

/**
 * A P-256 key pair as VAPID keys are written (RFC 8292, base64url): the public key as an
 * uncompressed point (65 bytes), the private key as its 32-byte scalar. The scalar comes from
 * ECDH as a number's bytes, one in 256 of them a byte short: it is padded to its full length.
 */
export function vapidPair(ecdh: ECDH): { publicKey: string; privateKey: string } {
  const scalar = ecdh.getPrivateKey();
  const padded = Buffer.concat([Buffer.alloc(SCALAR_BYTES - scalar.length), scalar]);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: padded.toString('base64url') };
}

/**
 * A new P-256 key pair (vapidPair), made with Node's own crypto, so that a first start does not
 * load web-push (src/lib/lazy-modules.ts) for it. Made by ECDH, not by generateKeyPairSync and a
 * JWK export: on Node.js 20 a garbage collection during that export can deadlock the process
 * (stop 108's CI: the key's generation job, collected, waits on the lock the export holds).
 */
export function newP256KeyPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return vapidPair(ecdh);
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
