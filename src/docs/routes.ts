import type { FastifyInstance } from 'fastify';
import { renderDocs } from './page.ts';

/** `GET /api/openapi.json` and a readable page at `/api/docs`, both offline. */
export async function docsRoutes(app: FastifyInstance) {
  app.get(
    '/api/openapi.json',
    { config: { guard: 'public' }, schema: { summary: 'This OpenAPI 3.1 document' } },
    async () => app.swagger(),
  );
  let page: string | undefined;
  app.get(
    '/api/docs',
    { config: { guard: 'public' }, schema: { summary: 'API documentation (HTML)' } },
    async (_req, reply) => {
      page ??= renderDocs(app.swagger() as never);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    },
  );
}
