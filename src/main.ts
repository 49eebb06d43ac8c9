/** The service's entry point: `node dist/src/main.js` (what `npm start` runs). */
import { loadDotEnv } from './config/dotenv.ts';
import { parseConfig } from './config/config.ts';
import { serviceLogger } from './lib/log.ts';
import { startServer } from './server.ts';

// One JSON logger from the first line: a configuration or migration failure is a log line
// like any other (at info until the configuration names the level), its credentials redacted.
const log = serviceLogger();
// The service's settings are its environment: an argument is a command meant for the tool
// (`--help`, `migrate`), said and refused rather than taken as a start that makes a database.
if (process.argv.length > 2) {
  log.fatal(
    `the service takes no arguments (given: ${process.argv.slice(2).join(' ')}); its settings are ` +
      'environment variables (README.md "Configuration"), its commands the tool\'s: npx streamer-rating --help',
  );
  process.exit(2);
}
try {
  loadDotEnv();
  const config = parseConfig();
  log.level = config.logLevel;
  await startServer(config, log);
} catch (err) {
  log.fatal({ err }, `the service cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
