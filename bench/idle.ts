/** Waiting for a server process to finish the work a load left queued, read from /proc. */
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** CPU time the process has used, in clock ticks; null where /proc is absent. */
function cpuTicks(pid: number): number | null {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return null;
  const stat = readFileSync(file, 'utf8');
  // Fields after "(comm)": state is the first; utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Resolves once the process has stopped using the CPU (work queued by a load is done): two
 * quiet quarter-seconds in a row (under 10% of a core), or two minutes at most.
 */
export async function waitIdle(server: { pid: number }): Promise<void> {
  let last = cpuTicks(server.pid);
  if (last === null) return void (await sleep(1000));
  const deadline = performance.now() + 120_000;
  let quiet = 0;
  while (quiet < 2 && performance.now() < deadline) {
    await sleep(250);
    const now = cpuTicks(server.pid);
    if (now === null) return;
    quiet = now - last <= 2 ? quiet + 1 : 0;
    last = now;
  }
}
