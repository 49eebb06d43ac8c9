import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The guest tag of the client address (DECISIONS.md "Third wave"): a keyed hash, never the
     * address. Comments and suggestions store it, blocks and guests' rate limits key on it.
     */
    readonly guestTag: string;
  }
}

/**
 * The part of an address that names one client: an IPv4 address (IPv4-mapped IPv6 included)
 * as is, an IPv6 address by its /64 network, which one subscriber holds whole.
 */
export function clientNetwork(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The keyed hash of an address: 64 hex characters (staff see the first 10). */
export function guestTagger(secret: string): (ip: string) => string {
  const known = new Map<string, string>();
  return (ip) => {
    let tag = known.get(ip);
    if (tag === undefined) {
      tag = createHmac('sha256', secret)
        .update(`guest:${clientNetwork(ip)}`)
        .digest('hex');
      if (known.size >= 1024) known.clear();
      known.set(ip, tag);
    }
    return tag;
  };
}

/** What staff see of a guest tag. */
export const shortTag = (tag: string): string => tag.slice(0, 10);

export const guestTagPlugin = fp(
  async (app: FastifyInstance, opts: { secret: string }) => {
    const tagOf = guestTagger(opts.secret);
    app.decorateRequest('guestTag', {
      getter(this: FastifyRequest) {
        return tagOf(this.ip);
      },
    });
  },
  { name: 'guest-tag' },
);
