/**
 * A service's start, up to the point where it would build the app, for test/start-race.test.ts:
 * waits on stdin for `go <DATABASE_URL>`, runs the start's database steps (server.ts
 * `prepareDatabase`) on that database, answers `ok` or `error <message>`, and waits for the
 * next. Many of these, told `go` at the same moment, are instances started together.
 */
import { createInterface } from 'node:readline';
import { parseConfig } from '../../src/config/config.ts';
import { prepareDatabase } from '../../src/server.ts';

const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
for await (const line of lines) {
  const url = line.replace(/^go /, '');
  try {
    const config = parseConfig({
      DATABASE_URL: url,
      ADMIN_PASSWORD: '',
      SESSION_SECRET: 'start-race-secret-0123456789abcdefghij',
    });
    const { database } = await prepareDatabase(config, () => undefined);
    await database.db.destroy();
    process.stdout.write('ok\n');
  } catch (err) {
    process.stdout.write(`error ${(err as Error).message.replace(/\n/g, ' ')}\n`);
  }
}
