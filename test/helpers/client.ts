import http from 'node:http';
import { Agent, fetch } from 'undici';
import { checkAnswer } from './contract-live.ts';

/**
 * The tests' connections are let go after 10 s idle, well before the server's keep-alive
 * (72 s, http/connections.ts). Node's own fetch keeps a connection until 1 s before the
 * server's hint, so a test that reused one after some 71 s of real time (a file's slow tests
 * on a loaded machine) could write its request as the server closed it, and got ECONNRESET
 * (a CI run of mail.test.ts). Undici from npm, so the agent and its fetch are one version on
 * every Node.js.
 */
const agent = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 10_000 });

/**
 * An event stream never ends by itself: its head is the answer, read over node:http and the
 * connection closed (fetch's client would keep another connection open behind it).
 */
function streamHead(url: string, headers: Record<string, string>): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const out = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
          out.append(name, v);
      }
      const status = res.statusCode ?? 0;
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        req.destroy();
        resolve(new Response(null, { status, headers: out }));
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(new Response(text, { status, headers: out })));
    });
    req.on('error', reject);
  });
}

/**
 * A small HTTP client that keeps the session cookie, like one browser. Every answer is held
 * against the API document of the app that gave it (helpers/contract-live.ts).
 */
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  /** JSON body (an object), or a string sent as is with the given content type. */
  body?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  redirect?: 'manual' | 'follow';
}

export class Client {
  cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  get sid(): string | undefined {
    return this.cookies.get('sid') ?? this.cookies.get('__Host-sid');
  }

  async request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...opts.headers };
    let body: string | undefined;
    if (opts.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.form).toString();
    } else if (typeof opts.body === 'string') {
      body = opts.body;
    } else if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(opts.body);
    }
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const res =
      method === 'GET' && /^\/api\/events(\?|$)/.test(path)
        ? await streamHead(this.baseUrl + path, headers)
        : await fetch(this.baseUrl + path, {
            method,
            headers,
            body,
            redirect: opts.redirect ?? 'manual',
            dispatcher: agent,
          });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const cleared = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (cleared) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const finalUrl = new URL(res.url || this.baseUrl + path);
    checkAnswer(finalUrl.origin, {
      method,
      url: finalUrl.pathname + finalUrl.search,
      status: res.status,
      headers: res.headers,
      text,
    });
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('GET', path, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  put<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PUT', path, { ...opts, body });
  }
  del<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', path, opts);
  }
}
