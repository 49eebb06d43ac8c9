/**
 * The Node.js options the service runs with: `npm start` passes them (package.json, kept
 * equal by test/config.test.ts), and so do the bench and the soak when they start it.
 *
 * `--max-semi-space-size=4` keeps V8's young generation small. Its default grew with Node.js
 * (new space 32 MiB on Node.js 20, 128 MiB on 24), and under load that alone took the
 * service past its 150 MiB memory budget; V8 takes the option only at process start.
 */
export const SERVICE_NODE_ARGS = ['--max-semi-space-size=4'] as const;
