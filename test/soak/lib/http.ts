import { ADMIN_PASSWORD } from '../../helpers/service.ts';

export interface Answer {
  /** 0 when no answer came: connection refused or reset, or the time ran out (see error). */
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined. */
  json: any;
  /** Why there is no answer. */
  error?: string;
  /** Milliseconds from sending to the end of the answer. */
  ms: number;
}

export interface Send {
  /** A JSON body (an object), or a string sent with the given content type. */
  json?: unknown;
  body?: string | Buffer;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One browser: keeps its session cookie, never throws for network trouble (status 0). */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(public baseUrl: string) {}

  async request(method: string, path: string, send: Send = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...send.headers };
    let body: string | Buffer | undefined = send.body;
    if (send.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(send.json);
    }
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const started = performance.now();
    try {
      const res = await fetch(this.baseUrl + path, {
        method,
        headers,
        body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(send.timeoutMs ?? 30_000),
      });
      for (const line of res.headers.getSetCookie()) this.keepCookie(line);
      const text = await res.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, text, json, ms: performance.now() - started };
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      const error = cause ?? (err as Error).name ?? String(err);
      return {
        status: 0,
        headers: new Headers(),
        text: '',
        json: undefined,
        error,
        ms: performance.now() - started,
      };
    }
  }

  get(path: string, send?: Send) {
    return this.request('GET', path, send);
  }
  post(path: string, json: unknown, send?: Send) {
    return this.request('POST', path, { ...send, json });
  }
  put(path: string, json: unknown, send?: Send) {
    return this.request('PUT', path, { ...send, json });
  }

  private keepCookie(line: string) {
    const [pair = '', ...attrs] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (value === '' || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** Fails with the answer in the message unless the status is the expected one. */
export function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) {
    throw new Error(
      `${what}: expected ${status}, got ${answer.status} ${answer.error ?? answer.text.slice(0, 200)}`,
    );
  }
  return answer;
}

/** A browser logged in as administrator (POST /api/auth/login). */
export async function adminBrowser(baseUrl: string): Promise<Browser> {
  const b = new Browser(baseUrl);
  expectStatus(await b.post('/api/auth/login', { password: ADMIN_PASSWORD }), 200, 'administrator login');
  return b;
}

/**
 * A browser signed in as `login` on provider_a through the service's development identity
 * provider (DEV_PROVIDERS=true): the whole redirect flow, as a person's browser follows it.
 */
export async function signedInBrowser(baseUrl: string, login: string): Promise<Browser> {
  const b = new Browser(baseUrl);
  const start = expectStatus(await b.get('/api/oauth/login/provider_a'), 302, 'sign-in start');
  const authorize = new URL(start.headers.get('location') ?? '');
  authorize.searchParams.set('typed_login', login);
  const approved = expectStatus(await b.get(authorize.pathname + authorize.search), 302, 'dev authorize');
  const callback = new URL(approved.headers.get('location') ?? '');
  const done = expectStatus(await b.get(callback.pathname + callback.search), 302, 'sign-in callback');
  const target = done.headers.get('location') ?? '';
  if (target.includes('auth_error')) throw new Error(`sign-in of ${login} failed: ${target}`);
  return b;
}

/** Creates a streamer as administrator; its id. */
export async function createStreamer(admin: Browser, name: string): Promise<number> {
  const res = expectStatus(await admin.post('/api/streamers?admin=1', { name }), 201, `create ${name}`);
  return res.json.id as number;
}
