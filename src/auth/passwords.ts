// Loaded at the first password operation, not at start (docs/decisions.md "Start-up").
const argon2 = () => import('@node-rs/argon2');
const bcrypt = async () => (await import('bcryptjs')).default;

/** OWASP's argon2id minimum: 19 MiB, 2 passes, 1 lane. (2 = Algorithm.Argon2id.) */
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export async function hashPassword(password: string): Promise<string> {
  return (await argon2()).hash(password, ARGON2);
}

/** Verifies against argon2id or a bcrypt hash from a PHP deployment (`$2y$`, `$2b$`, `$2a$`). */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    if (stored.startsWith('$argon2')) return await (await argon2()).verify(stored, password);
    if (/^\$2[aby]\$/.test(stored)) return await (await bcrypt()).compare(password, stored);
  } catch {
    // A malformed hash verifies nothing.
  }
  return false;
}
