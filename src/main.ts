/** The service's entry point: `node dist/src/main.js` (what `npm start` runs). */
import { loadDotEnv } from './config/dotenv.ts';
import { parseConfig } from './config/config.ts';
import { serviceLogger } from './lib/log.ts';
import { startServer } from './server.ts';

// One JSON logger from the first line: a configuration or migration failure is a log line
// like any other (at info until the configuration names the level), its credentials redacted.
const log = serviceLogger();
try {
  loadDotEnv();
  const config = parseConfig();
  log.level = config.logLevel;
  await startServer(config, log);
} catch (err) {
  log.fatal({ err }, `the service cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
