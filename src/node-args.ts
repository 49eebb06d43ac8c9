/**
 * How the service's process is started: `npm start` passes these (package.json, kept equal by
 * test/config.test.ts), and so do the systemd unit (test/deploy.test.ts), the bench and the
 * soak when they start it.
 *
 * `--max-semi-space-size=8` keeps V8's young generation small. Its default grew with Node.js
 * (new space 32 MiB on Node.js 20, 128 MiB on 24), and under load that alone took the
 * service past its 150 MiB memory budget; V8 takes the option only at process start. It is
 * 8 rather than 4: with 4 MiB semi-spaces a loaded service scavenges about every 15 ms and
 * the short answers (/healthz, cached badges and cards) ran at 0.7-0.85x of a bare Fastify;
 * with 8 they run at 1.0-1.1x (`npm run bench`, docs/benchmarks.md).
 *
 * `--heap-growing-percent=25` lets the old generation grow to 1.25 times what survived the
 * last full collection before the next one, instead of up to 4 times: under a burst of
 * writes, answers waiting for their commit outlive two young collections and are promoted,
 * and the old generation grew from 17 to 71 MiB of mostly garbage before V8 looked (peak
 * 171 MiB resident at 17,800 comment posts a second; 116 MiB at 1.5 times, at the same
 * speed).
 *
 * `--no-maglev` leaves out V8's middle compiler, as Node.js 20 did (there it was off by
 * default): functions go from the bytecode and its baseline code straight to TurboFan. When a
 * load starts, some 190 functions turn hot within a few hundred milliseconds, and each queued
 * Maglev job holds its own 128 KiB zone until a compiler thread reaches it: 24 MiB at once,
 * the difference between the service's peak and the 150 MiB budget (peak 159-170 MiB with it,
 * 141-143 without, the cached answers and comment posting as fast; docs/benchmarks.md "The
 * compile queue's memory").
 */
export const SERVICE_NODE_ARGS = [
  '--max-semi-space-size=8',
  '--heap-growing-percent=25',
  '--no-maglev',
] as const;

/**
 * The environment the service's process starts with, unless the operator sets these; glibc
 * reads both only at process start.
 *
 * `MALLOC_ARENA_MAX=2`: glibc gives every thread that allocates its own malloc arena, and the
 * service has many such threads (libuv's pool compressing renderings with brotli and gzip,
 * argon2's workers, V8's helpers); memory freed in an arena stays resident. With up to
 * sixteen arenas on two cores the benchmark's peak was 163-168 MiB, 25 MiB of it in arenas;
 * with two, 139-147 MiB at the same speed.
 *
 * `MALLOC_MMAP_THRESHOLD_=131072`: blocks from 128 KiB up are mapped on their own and given
 * back when freed. glibc otherwise raises that threshold after the first such block is freed
 * (up to 32 MiB), and from then on the big blocks come from the arenas and stay: argon2id's
 * 19 MiB per password check, brotli's windows for a long rendering. With it fixed the
 * benchmark's peak is 124-129 MiB, at the same speed (docs/benchmarks.md).
 */
export const SERVICE_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' } as const;

/**
 * `npm start`'s command line (package.json): the environment's defaults, then node. `exec`
 * puts node in the place of npm's shell, so the SIGTERM npm passes on reaches the service
 * itself: a shell in between would die and leave the service running.
 */
export const START_COMMAND =
  Object.entries(SERVICE_ENV)
    .map(([name, value]) => `${name}=\${${name}:-${value}} `)
    .join('') + `exec node ${SERVICE_NODE_ARGS.join(' ')} dist/src/main.js`;
