/**
 * The Node.js options the service runs with: `npm start` passes them (package.json, kept
 * equal by test/config.test.ts), and so do the bench and the soak when they start it.
 *
 * `--max-semi-space-size=4` keeps V8's young generation small. Its default grew with Node.js
 * (new space 32 MiB on Node.js 20, 128 MiB on 24), and under load that alone took the
 * service past its 150 MiB memory budget; V8 takes the option only at process start.
 *
 * `--heap-growing-percent=25` lets the old generation grow to 1.25 times what survived the
 * last full collection before the next one, instead of up to 4 times: under a burst of
 * writes, answers waiting for their commit outlive two young collections and are promoted,
 * and the old generation grew from 17 to 71 MiB of mostly garbage before V8 looked (peak
 * 171 MiB resident at 17,800 comment posts a second; 116 MiB at 1.5 times, at the same
 * speed). The whole benchmark peaks at 146 MiB with 1.25 times, without losing speed.
 */
export const SERVICE_NODE_ARGS = ['--max-semi-space-size=4', '--heap-growing-percent=25'] as const;
