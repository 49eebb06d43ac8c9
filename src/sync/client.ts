import type { ProviderConfig } from '../config/providers.ts';
import type { Clock } from '../lib/clock.ts';
import { headerOf } from '../lib/outbound.ts';
import { callJson, type JsonAnswer, member, retryAt, SyncError } from './http.ts';

/** Renew this long before the provider says the app token expires. */
const EXPIRY_MARGIN_MS = 5 * 60_000;
/** Kick does not say how long its app tokens live: assume an hour, and renew on 401 anyway. */
const DEFAULT_LIFETIME_S = 3600;

/**
 * One provider's API as the live sync calls it: an app token from the client-credentials
 * grant (kept in memory only, renewed before it expires and once on a 401) and the provider's
 * rate limit (calls wait while `Ratelimit-Remaining` is 0 or after a 429).
 */
export class ProviderClient {
  #token: string | null = null;
  #expiresAt = 0;
  /** No calls before this time (ms since the epoch). */
  pausedUntil = 0;
  /** The calls left in the provider's rate-limit window, as its last answer said (null: unknown). */
  remaining: number | null = null;

  constructor(
    private readonly settings: ProviderConfig,
    private readonly timeoutMs: number,
    private readonly clock: Clock,
    /** Headers every API call carries besides the token (Twitch wants Client-Id). */
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  #now = () => this.clock.now().getTime();

  get paused(): boolean {
    return this.pausedUntil > this.#now();
  }

  async #appToken(): Promise<string> {
    if (this.#token !== null && this.#now() < this.#expiresAt - EXPIRY_MARGIN_MS) return this.#token;
    this.#token = null;
    const answer = await this.#track(() =>
      callJson(
        this.settings.tokenUrl,
        {
          method: 'POST',
          form: {
            client_id: this.settings.clientId,
            client_secret: this.settings.clientSecret,
            grant_type: 'client_credentials',
          },
        },
        this.timeoutMs,
        this.#now,
      ),
    ).catch((err: unknown) => {
      throw err instanceof SyncError
        ? new SyncError(`app token request: ${err.message}`, err.kind, err.retryAt)
        : err;
    });
    const token = member(answer.json, 'access_token');
    if (typeof token !== 'string' || token === '') {
      throw new SyncError('app token request: the answer has no access_token', 'wrong_data');
    }
    const lifetime = Number(member(answer.json, 'expires_in'));
    this.#expiresAt = this.#now() + (lifetime > 0 ? lifetime : DEFAULT_LIFETIME_S) * 1000;
    this.#token = token;
    return token;
  }

  /** A GET of `path` (below the API URL) with the app token; a 401 renews the token once. */
  async get(path: string): Promise<JsonAnswer> {
    if (this.paused) {
      throw new SyncError(
        `rate limited; waiting until ${new Date(this.pausedUntil).toISOString()}`,
        'rate_limited',
        this.pausedUntil,
      );
    }
    const url = `${this.settings.apiUrl}${path}`;
    const once = async () => {
      const token = await this.#appToken();
      return this.#track(() =>
        callJson(
          url,
          { method: 'GET', headers: { ...this.extraHeaders, authorization: `Bearer ${token}` } },
          this.timeoutMs,
          this.#now,
        ),
      );
    };
    try {
      return await once();
    } catch (err) {
      if (!(err instanceof SyncError) || err.kind !== 'unauthorized') throw err;
      this.#token = null;
      return once().catch((again: unknown) => {
        if (again instanceof SyncError && again.kind === 'unauthorized') {
          throw new SyncError(
            'a new app token was refused too (401): check the client id and secret',
            'unauthorized',
          );
        }
        throw again;
      });
    }
  }

  /** Follows the provider's rate-limit headers and 429s. */
  async #track(call: () => Promise<JsonAnswer>): Promise<JsonAnswer> {
    try {
      const answer = await call();
      const left = headerOf(answer.headers, 'ratelimit-remaining');
      this.remaining = left !== null && /^\d+$/.test(left) ? Number(left) : null;
      if (left === '0') {
        this.pausedUntil = retryAt(answer.headers, this.#now());
      }
      return answer;
    } catch (err) {
      if (err instanceof SyncError && err.retryAt !== null) this.pausedUntil = err.retryAt;
      throw err;
    }
  }
}
