#!/usr/bin/env node
/**
 * `npm run check`: the client generated from the API document first (the type checks read it),
 * then the service's type check, the page's, the linter and the formatter side by side. Each of
 * the four is one process that keeps one core busy, and CI's two cores ran them one after the
 * other in 300 s (docs/benchmarks.md, stop 106). A step's output is printed whole when it ends,
 * under its name, so that the four never interleave; the exit code is 1 when any step failed.
 */
import { spawn } from 'node:child_process';

const STEPS = [
  ['type check', 'tsc', ['--noEmit']],
  ['page check', 'svelte-check', ['--tsconfig', 'web/tsconfig.json', '--fail-on-warnings']],
  ['lint', 'eslint', ['--max-warnings', '0', '.']],
  ['format', 'prettier', ['--check', '.']],
];

/** Runs a command (from node_modules/.bin, which npm puts on PATH); resolves to its exit code and output. */
function run(command, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (err) => resolve({ code: 1, output: `${output}${err.message}\n`, started }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output, started }));
  });
}

function report(name, { code, output, started }) {
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`--- ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s`);
  if (output.trim()) console.log(output.trimEnd());
}

const client = await run('tsx', ['scripts/generate-client.ts']);
report('the page’s API client', client);
if (client.code !== 0) process.exit(1);

const results = await Promise.all(
  STEPS.map(async ([name, command, args]) => {
    const result = await run(command, args);
    report(name, result);
    return result.code;
  }),
);
process.exit(results.every((code) => code === 0) ? 0 : 1);
