/**
 * SECURITY.md 20-21 under fire: fixed probes for issue 8's findings plus random requests
 * (fast-check), over fetch and over raw TCP: malformed paths and request lines, oversized
 * headers, NUL bytes, invalid UTF-8, repeated parameters, prototype keys, huge fields. No
 * answer is a 5xx; every answer has nosniff, Referrer-Policy: no-referrer and a CSP; every
 * error answer is a JSON `{"error": ...}`; the debug operation never answers anyone but the
 * administrator.
 */
import { createDatabase, type DbKind } from './lib/database.ts';
import type { FuzzCase, Who } from './lib/fuzz-cases.ts';
import { fixedCases } from './lib/fuzz-probes.ts';
import { randomCases } from './lib/fuzz-random.ts';
import { adminBrowser, Browser, createStreamer, expectStatus, signedInBrowser } from './lib/http.ts';
import { rawRequest } from './lib/net.ts';
import { Service } from '../helpers/service.ts';
import { dbArgument, Findings, isMain, n, runScript, some, type Verdict } from './lib/verdict.ts';

export interface FuzzOptions {
  requests: number;
  seed: number;
  concurrency: number;
}

export const FULL: FuzzOptions = {
  requests: 10_000,
  seed: Number(process.env.SOAK_SEED ?? 8),
  concurrency: 8,
};

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Whether a body is the debug operation's answer (not, say, the OpenAPI document describing it). */
function isDebugOutput(body: string): boolean {
  try {
    const value = JSON.parse(body) as Record<string, unknown> | null;
    return Boolean(
      value && typeof value === 'object' && Array.isArray(value.recent_db_states) && 'session_id' in value,
    );
  } catch {
    return false;
  }
}

/** What is wrong with an answer, if anything: short phrases that group alike answers. */
export function judge(c: FuzzCase, a: Seen): string[] {
  const problems: string[] = [];
  const method = c.kind === 'http' ? c.method : 'raw';
  if (a.status === 0) return [`no answer: ${a.body.slice(0, 80) || 'the connection closed'}`];
  if (a.status >= 500) problems.push(`status ${a.status}`);
  const missing = [
    a.headers['x-content-type-options'] !== 'nosniff' && 'nosniff',
    a.headers['referrer-policy'] !== 'no-referrer' && 'Referrer-Policy',
    !a.headers['content-security-policy'] && 'CSP',
  ].filter(Boolean);
  if (missing.length) problems.push(`${a.status} without ${missing.join(', ')}`);
  const page =
    c.kind === 'http' && !c.path.startsWith('/api/') && /text\/html/.test(a.headers['content-type'] ?? '');
  if (a.status >= 400 && method !== 'HEAD' && !(page && a.status === 404)) {
    // DECISIONS.md: every error body is {"error": "<message>", "code": "<code>"}, nothing else.
    let body: unknown;
    try {
      body = JSON.parse(a.body);
    } catch {
      body = undefined;
    }
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    const { error, code } = (body ?? {}) as { error?: unknown; code?: unknown };
    const shaped =
      keys.length === 2 && typeof error === 'string' && typeof code === 'string' && /^[a-z_]+$/.test(code);
    if (!shaped) problems.push(`${a.status} body not {"error": ..., "code": ...}`);
  }
  if (c.expect?.status !== undefined && a.status !== c.expect.status)
    problems.push(`expected ${c.expect.status}, got ${a.status}`);
  if (c.expect?.notSuccess && a.status < 400) problems.push(`prototype keys accepted (${a.status})`);
  if ((c.kind === 'raw' || c.who !== 'admin') && isDebugOutput(a.body))
    problems.push('debug output to a non-administrator');
  return problems;
}

/** Bad answers grouped by problem, with a few of the requests that showed each. */
class Problems {
  private readonly byProblem = new Map<string, { count: number; examples: string[] }>();

  add(problem: string, example: string) {
    const seen = this.byProblem.get(problem) ?? { count: 0, examples: [] };
    seen.count++;
    if (seen.examples.length < 3 && !seen.examples.includes(example)) seen.examples.push(example);
    this.byProblem.set(problem, seen);
  }

  get size() {
    return this.byProblem.size;
  }

  list(): string[] {
    return [...this.byProblem]
      .sort((a, b) => b[1].count - a[1].count)
      .map(([problem, { count, examples }]) => `${problem} ×${n(count)} (e.g. ${examples.join(' | ')})`);
  }
}

export async function fuzz(kind: DbKind, o: FuzzOptions = FULL): Promise<Verdict> {
  const name = `fuzz (${kind})`;
  const findings = new Findings();
  const database = await createDatabase(kind);
  let service: Service | undefined;
  const problems = new Problems();
  /** The fixed probes that failed, with their answer's status. */
  const probes: string[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  try {
    service = await Service.start({ databaseUrl: database.url, name });
    const admin = await adminBrowser(service.url);
    const streamerId = await createStreamer(admin, 'Fuzzed Streamer');
    const group = expectStatus(
      await admin.post('/api/rater_groups', { name: 'Fuzz team' }),
      201,
      'create group',
    );
    const login = 'fuzz_member';
    const browsers: Record<Who, Browser> = {
      anonymous: new Browser(service.url),
      admin,
      user: await signedInBrowser(service.url, login),
    };
    const fixed = fixedCases({ streamerId, groupId: group.json.id, login });
    const cases = [...fixed, ...randomCases(Math.max(0, o.requests - fixed.length), o.seed)];

    const send = async (c: FuzzCase): Promise<Seen> => {
      if (c.kind === 'raw')
        return rawRequest(service!.port, c.bytes).catch((err: Error) => ({
          status: 0,
          headers: {},
          body: err.message,
        }));
      // A fresh copy of the cookie jar: answers (a new session id, a logout) do not change who the next request is.
      const b = new Browser(service!.url);
      for (const [k, v] of browsers[c.who].cookies) b.cookies.set(k, v);
      const a = await b.request(c.method, c.path, {
        body: c.body,
        headers: c.type ? { 'content-type': c.type } : {},
        timeoutMs: 30_000,
      });
      return {
        status: a.status,
        headers: Object.fromEntries(a.headers),
        body: a.error ? `(${a.error})` : a.text,
      };
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (next < cases.length) {
          const c = cases[next++]!;
          const answer = await send(c);
          sent++;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const found = judge(c, answer);
          const example = c.kind === 'http' ? `${c.who} ${c.method} ${c.path.slice(0, 60)}` : c.label;
          for (const p of found) problems.add(p, c.fixed ? c.label : example);
          if (c.fixed && found.length) probes.push(`${c.label} → ${answer.status}`);
        }
      }),
    );
    findings.check(service.alive, () => `the server died: ${service!.describeExit()}`);
    findings.check(
      probes.length === 0,
      () => `${probes.length} of the fixed probes failed: ${some(probes, 40)}`,
    );
    findings.check(problems.size === 0, () => `bad answers: ${some(problems.list(), 20)}`);
  } catch (err) {
    findings.fail(`${(err as Error).message}${service ? ` (server: ${service.describeExit()})` : ''}`);
  } finally {
    await service?.stop();
    await database.cleanup();
  }
  const fivexx = [...statuses].filter(([s]) => s >= 500).reduce((sum, [, c]) => sum + c, 0);
  return findings.verdict(name, `${n(sent)} requests (seed ${o.seed}), ${n(fivexx)} answers >= 500`);
}

if (isMain(import.meta.url)) {
  const kind = dbArgument();
  await runScript(`fuzz (${kind})`, () => fuzz(kind));
}
