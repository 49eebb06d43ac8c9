import { createHash, randomBytes } from 'node:crypto';

/** 32 lowercase hex characters: 128 random bits (SPEC.md's state). */
export const newState = () => randomBytes(16).toString('hex');

/** RFC 7636 verifier from 48 random bytes, base64url without padding (64 characters). */
export const newVerifier = () => randomBytes(48).toString('base64url');

/** S256 challenge: SHA-256 of the verifier, base64url without padding. */
export const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');
