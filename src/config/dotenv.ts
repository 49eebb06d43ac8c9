import { existsSync } from 'node:fs';

/** Loads `.env` from the working directory, if there is one; the environment wins. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
