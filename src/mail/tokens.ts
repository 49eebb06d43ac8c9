import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The links' tokens. The database keeps a token's SHA-256 digest only (`mail_tokens`); the
 * token itself is an HMAC, under the service's mail key, of a random seed that the queued
 * message keeps (`mail_outbox.payload`), so the sender can write the link while neither the
 * tokens' table nor the outbox alone can make one.
 */

/** The key tokens are made with, from the service's secret (as the guests' challenge key is). */
export const mailKey = (secret: string): string =>
  createHmac('sha256', secret).update('mail-links').digest('hex');

export const newSeed = (): string => randomBytes(16).toString('base64url');

export const tokenOf = (key: string, seed: string): string =>
  createHmac('sha256', key).update(seed).digest('base64url');

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
