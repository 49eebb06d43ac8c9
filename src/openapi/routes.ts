import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Html } from '../lib/schemas.ts';
import { renderDocs } from './page.ts';

/** `GET /api/openapi.json` and a readable page at `/api/docs`, both offline. */
export async function openApiRoutes(app: FastifyInstance) {
  let json: string | undefined;
  app.get(
    '/api/openapi.json',
    {
      config: { guard: 'public', session: false },
      schema: {
        summary: 'This OpenAPI 3.1 document',
        response: {
          200: Type.Object(
            { openapi: Type.String(), paths: Type.Object({}, { additionalProperties: true }) },
            { additionalProperties: true, description: 'An OpenAPI 3.1 document' },
          ),
        },
      },
    },
    // Sent as text: the document is not serialized through its own (open) schema.
    async (_req, reply) =>
      reply.type('application/json; charset=utf-8').send((json ??= JSON.stringify(app.swagger()))),
  );
  let page: string | undefined;
  app.get(
    '/api/docs',
    {
      config: { guard: 'public', session: false },
      schema: {
        summary: 'API documentation (HTML)',
        response: { 200: Html('The documentation as one page') },
      },
    },
    async (_req, reply) => {
      page ??= renderDocs(app.swagger() as never);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    },
  );
}
