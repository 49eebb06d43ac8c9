import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchesEtag } from '../cache/send.ts';

interface Ready {
  /** The content version whose public list the image was checked against. */
  version: number;
  etag: string;
  body: Buffer;
  full: Record<string, string>;
  notModified: Record<string, string>;
}

/** Addresses kept; past this the oldest are forgotten (they are answered by the route again). */
const MAX_READY = 4096;

/**
 * Drawn images by address, for the answers before routing (cache/fast-answers.ts): once the
 * route has answered an image for the current content, a repeat request for that address is
 * answered from here with the same headers and bytes, without Fastify. Any change of content
 * sends requests back to the route, which checks the Public view and the ETag again.
 */
export class ReadyImages {
  readonly #byUrl = new Map<string, Ready>();
  #securityHeaders: Record<string, string> = {};

  /** The resource security headers every answer carries (plugins/security-headers.ts). */
  setSecurityHeaders(headers: Record<string, string>): void {
    this.#securityHeaders = headers;
  }

  /** The route answered this image for content `version`. */
  keep(url: string, version: number, etag: string, type: string, cacheControl: string, body: Buffer): void {
    const common = { ...this.#securityHeaders, 'cache-control': cacheControl, etag };
    if (this.#byUrl.size >= MAX_READY && !this.#byUrl.has(url)) {
      const oldest = this.#byUrl.keys().next().value;
      if (oldest !== undefined) this.#byUrl.delete(oldest);
    }
    this.#byUrl.set(url, {
      version,
      etag,
      body,
      full: { ...common, 'content-type': type, 'content-length': String(body.length) },
      notModified: common,
    });
  }

  /** Answers a GET from memory and returns its status, or returns false and leaves it to the route. */
  answer(req: IncomingMessage, res: ServerResponse, version: number): 200 | 304 | false {
    const ready = this.#byUrl.get(req.url ?? '');
    if (!ready || ready.version !== version) return false;
    if (matchesEtag(req.headers['if-none-match'], ready.etag)) {
      res.writeHead(304, ready.notModified);
      res.end();
      return 304;
    }
    res.writeHead(200, ready.full);
    res.end(ready.body);
    return 200;
  }
}
