import type { Provider } from '../shared/rules.ts';

/** The signed-in user as SPEC.md's `oauth_user` holds it. */
export interface SessionUser {
  id: number;
  provider: Provider;
  login: string;
  display_name: string;
  avatar: string;
}

export interface SessionData {
  /** The administrator flag from the shared password. */
  is_admin?: boolean;
  /** When the administrator logged in; the flag lapses 12 hours later. */
  admin_at?: string;
  /** The password's generation at that login: a change of the password ends the flag. */
  admin_gen?: string;
  /**
   * This session's user was banned (DECISIONS.md "Third wave"): kept after the ban signs the
   * user out, so the session cannot go on posting as a guest.
   */
  banned?: true;
  /**
   * The user who signed out of this session last: while a time-out of theirs lasts, this
   * browser's guest posts are refused as theirs would be (guests/rules.ts `SESSION_TIMED_OUT`).
   */
  signed_out?: number;
  oauth_user?: SessionUser;
  /** provider_a flow (transient). */
  oauth_state?: string;
  oauth_provider?: string;
  /** The page path where the sign-in started, to return to (same-origin paths only). */
  oauth_return?: string;
  /** provider_b flow: the state is bound to this browser too (DECISIONS.md, login CSRF). */
  provider_b_state?: string;
  /** Diagnostics of a provider_b failure without a message. */
  provider_b_diag?: unknown;
}

/**
 * A server-side session. Nothing is stored until data is written, so anonymous visitors
 * create no rows. `regenerate()` gives the session a new id at the next write and deletes the
 * old row at once (session fixation). Its data may be shared with the session cache (one
 * parse per change, not per request): the first write works on a copy.
 */
export class Session {
  data: SessionData;
  dirty = false;
  regenerateRequested = false;
  #shared: boolean;

  constructor(
    /** The cookie value, null for a new session. */
    readonly cookieId: string | null,
    data: SessionData,
    /** When the row was last seen (epoch ms), null for a new session. */
    readonly seenAtMs: number | null,
    /** `data` belongs to a cache too: copy it before the first change. */
    shared = false,
    /** When the administrator logged in (epoch ms; NaN when not), parsed once per stored row. */
    readonly adminSinceMs = Date.parse(data.admin_at ?? ''),
  ) {
    this.data = data;
    this.#shared = shared;
  }

  static empty(): Session {
    return new Session(null, {}, null);
  }

  #own(): SessionData {
    if (this.#shared) {
      this.data = { ...this.data };
      this.#shared = false;
    }
    return this.data;
  }

  set<K extends keyof SessionData>(key: K, value: SessionData[K]): void {
    this.#own()[key] = value;
    this.dirty = true;
  }

  unset(key: keyof SessionData): void {
    if (key in this.data) {
      delete this.#own()[key];
      this.dirty = true;
    }
  }

  regenerate(): void {
    this.regenerateRequested = true;
    this.dirty = true;
  }
}
