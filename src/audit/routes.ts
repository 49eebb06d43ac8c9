import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { clamp, parseId, toInt } from '../lib/input.ts';
import { errors, Param } from '../lib/schemas.ts';
import { listAudit } from './queries.ts';

const Query = Type.Object({ limit: Param(), before: Param() });
const Entry = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  actor: Type.String(),
  actor_user_id: Type.Union([Type.Integer(), Type.Null()]),
  action: Type.String(),
  target_id: Type.Union([Type.Integer(), Type.Null()]),
  summary: Type.String(),
  details: Type.Unknown(),
});

/** `GET /api/audit?limit=&before=`: the audit log for the administrator, newest first. */
export async function auditRoutes(app: FastifyInstance) {
  app.get(
    '/api/audit',
    {
      config: { guard: 'admin', inputErrors: { '*': 'Invalid query' } },
      schema: {
        summary: 'Audit log, newest first; page with `before` = the last id seen',
        querystring: Query,
        response: { 200: Type.Array(Entry), ...errors(401) },
      },
    },
    async (request) => {
      const q = request.query as Static<typeof Query>;
      const limit = q.limit === undefined ? 50 : clamp(toInt(q.limit), 1, 200);
      return listAudit(app.db, limit, parseId(q.before) ?? undefined);
    },
  );
}
