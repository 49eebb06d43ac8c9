/**
 * A small HTTP client over node:http that returns the raw answer: the bytes as sent (not
 * decompressed) and every header, which is what the checks need (content-encoding, ETag).
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** false: a fresh connection (the readiness probe); default: a shared keep-alive pool. */
  agent?: http.Agent | false;
}

const pool = new http.Agent({ keepAlive: true, maxSockets: 32 });

/** Closes the pool's idle connections (they count toward the service's connection limits). */
export function closeIdle(): void {
  pool.destroy();
}

export function request(url: string, opts: RequestOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...opts.headers };
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(Buffer.byteLength(opts.body));
    }
    const req = http.request(
      url,
      { method: opts.method ?? 'GET', headers, agent: opts.agent ?? pool },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** 503 answers callJson waited out (the service shedding load), for the log. */
export const shed = { count: 0 };

/**
 * Sends JSON, expects `status`, returns the parsed answer. A 503 (load shedding) is retried
 * after a pause, up to 20 times, as a well-behaved client would.
 */
export async function callJson<T>(
  url: string,
  opts: RequestOptions & { expect: number },
): Promise<{ json: T; answer: Answer }> {
  let answer = await request(url, opts);
  for (let attempt = 1; answer.status === 503 && attempt < 20; attempt++) {
    shed.count++;
    await sleep(500);
    answer = await request(url, opts);
  }
  if (answer.status !== opts.expect) {
    throw new Error(
      `${opts.method ?? 'GET'} ${url}: ${answer.status} (expected ${opts.expect}): ${answer.body.toString().slice(0, 300)}`,
    );
  }
  return { json: JSON.parse(answer.body.toString()) as T, answer };
}

/** Runs `fn` over `items`, at most `concurrency` at a time. */
export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
