import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { makeAnswer } from '../cache/answer.ts';
import { sendAnswer } from '../cache/sender.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { Html, NotModified } from '../lib/schemas.ts';
import { renderDocs } from './page.ts';

/** `GET /api/openapi.json` and a readable page at `/api/docs`, both offline. */
export async function openApiRoutes(app: FastifyInstance) {
  // Made once, on first use: the document does not change while the service runs.
  const document = () =>
    app.answers.get('openapi:json', async () =>
      makeAnswer(JSON.stringify(app.swagger()), {
        type: 'application/json; charset=utf-8',
        cacheControl: 'no-cache',
        version: null,
      }),
    );
  const page = () =>
    app.answers.get('openapi:page', async () =>
      makeAnswer(renderDocs(app.swagger() as never), {
        type: 'text/html; charset=utf-8',
        cacheControl: 'no-cache',
        document: true,
        version: null,
      }),
    );
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
          304: NotModified,
        },
      },
    },
    // Sent as made: the document is not serialized through its own (open) schema.
    async (request, reply) => sendAnswer(request, reply, await document()),
  );
  app.get(
    '/api/docs',
    {
      config: { guard: 'public', session: false },
      schema: {
        summary: 'API documentation (HTML)',
        response: { 200: Html('The documentation as one page'), 304: NotModified },
      },
    },
    async (request, reply) => sendAnswer(request, reply, await page()),
  );
  methodNotAllowed(app, '/api/openapi.json', ['GET']);
  methodNotAllowed(app, '/api/docs', ['GET']);
}
