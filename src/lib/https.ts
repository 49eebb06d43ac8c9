import type { FastifyRequest } from 'fastify';

/** SPEC.md's https detection: a TLS socket, X-Forwarded-Proto https, or port 443. */
export function httpsDetected(request: FastifyRequest): boolean {
  const proto = request.headers['x-forwarded-proto'];
  const encrypted = (request.raw.socket as { encrypted?: boolean }).encrypted === true;
  return encrypted || proto === 'https' || request.raw.socket.localPort === 443;
}
