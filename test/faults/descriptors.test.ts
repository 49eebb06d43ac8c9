import { readdirSync } from 'node:fs';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { dbKind } from '../helpers/database.ts';
import { Service } from '../helpers/service.ts';
import { createSqlite } from '../soak/lib/database.ts';

/**
 * Issue 45 item 21: out of file descriptors, requests hung and nothing was logged. Under a low
 * `ulimit -n` the service answers 503 with Retry-After before the limit (and closes those
 * connections), says so in the log once a minute, and answers again once descriptors are free.
 */
const LIMIT = 128;
const held: net.Socket[] = [];
let service: Service | null = null;
afterAll(async () => {
  held.forEach((s) => s.destroy());
  await service?.stop();
});

/** A kept-alive connection that asked /healthz once: its status, the connection still open. */
function keptConnection(url: string): Promise<{ status: number; socket: net.Socket }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n'),
    );
    held.push(socket);
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
      if (status) resolve({ status: Number(status), socket });
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: 0, socket }));
  });
}

const openFiles = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

describe.runIf(dbKind === 'sqlite')('out of file descriptors', () => {
  it('under a low ulimit -n: 503 with Retry-After before the limit, one log line, answers again once free', async () => {
    const database = createSqlite();
    service = await Service.start({
      databaseUrl: database.url,
      name: 'few descriptors',
      openFiles: LIMIT,
      env: { LOG_LEVEL: 'warn' },
    });
    const pid = service.pid;
    // Connections until the service is within its spare tenth (or 16) of the limit.
    while (openFiles(pid) < LIMIT - 12) {
      const { status } = await keptConnection(service.url);
      if (status !== 200) break;
    }
    // Counted within a second: from then on a request is refused, not left to hang.
    await expect
      .poll(async () => (await fetch(`${service!.url}/healthz`).catch(() => null))?.status ?? 0)
      .toBe(503);
    const refused = await fetch(`${service.url}/api/streamers`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(refused.headers.get('connection')).toBe('close');
    expect((await refused.json()) as unknown).toEqual({
      error: 'Service unavailable',
      code: 'service_unavailable',
    });
    expect(openFiles(pid)).toBeLessThan(LIMIT);
    // Said once, however many requests were refused within the minute.
    await fetch(`${service.url}/healthz`);
    const said = service.grep(/out of file descriptors/);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('LimitNOFILE');
    expect(said[0]).toContain(`"limit":${LIMIT}`);

    // The connections close: the service answers again.
    held.splice(0).forEach((s) => s.destroy());
    await expect
      .poll(async () => (await fetch(`${service!.url}/healthz`).catch(() => null))?.status ?? 0)
      .toBe(200);
    expect(service.alive).toBe(true);
  }, 120_000);
});
