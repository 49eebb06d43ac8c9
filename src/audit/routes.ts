import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseId } from '../lib/input.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { pageLimit } from '../lib/schemas.ts';
import { listAudit } from './queries.ts';
import { listSchema } from './schemas.ts';
import { mayReadAudit } from './policy.ts';

/** `GET /api/audit?limit=&before=`: the audit log for the administrator, newest first. */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/audit', { config: { guard: mayReadAudit }, schema: listSchema }, async (request) => {
    const { limit, before } = request.query;
    return listAudit(app.db, pageLimit(limit, 50), parseId(before) ?? undefined);
  });
  methodNotAllowed(app, '/api/audit', ['GET']);
};
