import { BlockList, isIPv4 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The addresses TRUST_PROXY names (addresses and CIDR ranges, config.ts checked them). */
export function trustedProxies(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [addr = '', bits] = entry.split('/');
    const family = isIPv4(addr) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(addr, family);
    else list.addSubnet(addr, Number(bits), family);
  }
  return list;
}

/** Is `address` (a socket's remote address, perhaps IPv4-mapped IPv6) one TRUST_PROXY names? */
export function isTrusted(list: BlockList, address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
  return list.check(v4, isIPv4(v4) ? 'ipv4' : 'ipv6');
}

/**
 * Behind a reverse proxy that TRUST_PROXY does not name, every visitor shares the proxy's
 * address, and so its rate limits and guest tag. Nothing else would tell the operator: the
 * first request that carries X-Forwarded-For or Forwarded from an address TRUST_PROXY does not
 * name writes one warning to the log (once per process, then the check stops).
 */
export const forwardedWarningPlugin = fp(
  async (app: FastifyInstance) => {
    const trusted = trustedProxies(app.config.trustProxy);
    let warned = false;
    app.addHook('onRequest', (request, _reply, done) => {
      if (!warned) {
        const headers = request.raw.headers;
        if (headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined) {
          if (!isTrusted(trusted, request.raw.socket.remoteAddress)) {
            warned = true;
            app.log.warn(
              'forwarded headers (X-Forwarded-For or Forwarded) arrived from an address that TRUST_PROXY does not name: ' +
                "they are ignored and every client behind that proxy shares the proxy's address and limits; " +
                "set TRUST_PROXY to the proxy's address (docs/deploy.md). This warning is written once.",
            );
          }
        }
      }
      done();
    });
  },
  { name: 'forwarded-warning' },
);
