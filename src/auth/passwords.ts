import { hash, verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

/** OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane. (2 = Algorithm.Argon2id.) */
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/** Verifies against argon2id or a bcrypt hash from a PHP deployment (`$2y$`, `$2b$`, `$2a$`). */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    if (stored.startsWith('$argon2')) return await verify(stored, password);
    if (/^\$2[aby]\$/.test(stored)) return await bcrypt.compare(password, stored);
  } catch {
    // A malformed hash verifies nothing.
  }
  return false;
}
