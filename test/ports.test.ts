/**
 * The tests' servers listen on ports picked by freePort (test/soak/lib/net.ts). A port from the
 * kernel's ephemeral range can be taken, between the pick and the child's listen, as the source
 * port of any outgoing connection (a CI run's EADDRINUSE); picks stay below that range.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from './soak/lib/net.ts';

const ephemeralStart = (): number => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32_768;
  }
};

describe('freePort', () => {
  it('picks free ports below the ephemeral range, and a listener takes each', async () => {
    const below = ephemeralStart();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(below);
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
