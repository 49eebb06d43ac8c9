/**
 * The load generator when wrk is installed (`apt-get install -y wrk`): one thread, a C
 * client whose cost per answer is a small fraction of the server's, so a small answer
 * measures the server and not the client (autocannon's HTTP parser is JavaScript, and
 * parsing the service's security headers alone cost it more than the answer cost us).
 * The request goes into a generated Lua script, and the script's `done` prints the
 * figures as one JSON line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadRequest, LoadSummary } from './protocol.ts';

/** wrk counts answers by class only: the 2xx and 3xx ones are under this key. */
export const SUCCESS_CLASS = '2xx/3xx';
export const ERROR_CLASS = '4xx/5xx';

let found: boolean | undefined;

/** wrk on the PATH, unless BENCH_LOAD=autocannon asks for the JavaScript generator. */
export function wrkAvailable(): boolean {
  if (process.env.BENCH_LOAD === 'autocannon') return false;
  found ??= spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
  return found;
}

/** A Lua long string that cannot end early, whatever the text holds. */
function luaString(text: string): string {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
}

function script(request: LoadRequest): string {
  const lines = [`wrk.method = ${luaString(request.method)}`];
  if (request.body !== undefined) lines.push(`wrk.body = ${luaString(request.body)}`);
  for (const [name, value] of Object.entries(request.headers)) {
    lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
  }
  if (request.paths !== undefined && request.paths.length > 0) {
    lines.push(
      `paths = { ${request.paths.map(luaString).join(', ')} }`,
      'turn = 0',
      'request = function()',
      '  turn = turn % #paths + 1',
      '  return wrk.format(nil, paths[turn])',
      'end',
    );
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'\\nBENCH {"duration":%d,"requests":%d,"bytes":%d,"connect":%d,"read":%d,' +
      '"write":%d,"status":%d,"timeout":%d,"p50":%d,"p99":%d,"max":%d}\\n\',',
    '    summary.duration, summary.requests, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,',
    '    latency:percentile(50), latency:percentile(99), latency.max))',
    'end',
  );
  return lines.join('\n');
}

interface Figures {
  duration: number;
  requests: number;
  bytes: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  p50: number;
  p99: number;
  max: number;
}

export function runWrk(request: LoadRequest): Promise<LoadSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  const file = join(dir, 'load.lua');
  writeFileSync(file, script(request));
  const args = [
    '-t1',
    `-c${request.connections}`,
    `-d${request.seconds}s`,
    `--timeout`,
    `${request.timeoutSeconds}s`,
    '-s',
    file,
    request.url,
  ];
  return new Promise<LoadSummary>((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const line = /^BENCH (\{.*\})$/m.exec(out)?.[1];
      if (code !== 0 || !line) return reject(new Error(`wrk exited (${code}): ${out.trim()}`));
      const f = JSON.parse(line) as Figures;
      const seconds = f.duration / 1e6;
      resolve({
        duration: seconds,
        statusCounts: { [SUCCESS_CLASS]: f.requests - f.status, [ERROR_CLASS]: f.status },
        errors: f.connect + f.read + f.write + f.timeout,
        timeouts: f.timeout,
        latency: { p50: f.p50 / 1000, p99: f.p99 / 1000, max: f.max / 1000 },
        bytesPerSecond: f.bytes / Math.max(seconds, 1e-9),
      });
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}
