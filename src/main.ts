/** The service's entry point: `node dist/src/main.js` (what `npm start` runs). */
import { loadDotEnv } from './config/dotenv.ts';
import { parseConfig } from './config/config.ts';
import { startServer } from './server.ts';

try {
  loadDotEnv();
  await startServer(parseConfig());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
