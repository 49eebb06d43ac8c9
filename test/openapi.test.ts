import http from 'node:http';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../src/errors.ts';
import { finishDocument } from '../src/openapi/rules.ts';
import { PUSH_LIMITS } from '../src/shared/push.ts';
import { LIMITS, MAX_WEBHOOK_EVENTS } from '../src/shared/rules.ts';
import { useApp } from './helpers/app.ts';

const t = await useApp({ DEV_PROVIDERS: 'true', RATE_LIMIT: 'on' });
const doc = (await t.client().get('/api/openapi.json')).body;

type Op = Record<string, any>;
const operations = (): [string, string, Op][] =>
  Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]): [string, string, Op] => [method, path, op]),
  );
const UNSAFE = ['post', 'put', 'patch', 'delete'];
const toPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const routes = () =>
  t.app.routeList.filter(
    (r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !r.url.startsWith('/dev/') && !r.hidden,
  );
/** A request as a client sends it, any method (fetch refuses TRACE). */
function raw(method: string, path: string): Promise<{ status: number; allow: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.url}${path}`, { method }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('API documentation', () => {
  it('/api/openapi.json is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("passes Redocly's recommended rules with no error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: 'openapi.json',
      config,
    });
    const errors = problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('lists exactly the routes the service has (development stand-ins aside), each named and guarded', async () => {
    expect(routes().length).toBeGreaterThan(40);
    const documented = new Set(operations().map(([method, path]) => `${method.toUpperCase()} ${path}`));
    const registered = new Set(routes().map((r) => `${r.method} ${toPath(r.url)}`));
    expect([...documented].sort()).toEqual([...registered].sort());
    const ids = new Set<string>();
    for (const [method, path, op] of operations()) {
      const name = `${method} ${path}`;
      expect(op.description, name).toMatch(/Who may call:/);
      expect(op.summary, `${name} has a summary in its route schema`).toBeTruthy();
      expect(op.operationId, name).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(ids.has(op.operationId), `${op.operationId} is unique`).toBe(false);
      ids.add(op.operationId);
      expect(op.security, `${name} says which credentials it reads`).toBeDefined();
    }
    expect(Object.keys(doc.paths).filter((p) => p.includes('*'))).toEqual([]);
    expect(doc.servers).toEqual([{ url: t.config.baseUrl, description: expect.any(String) }]);
  });

  it('gives every operation the answers the shared rules add: 403, 400, 413 and 415 on unsafe methods, 503 with Retry-After, 500', () => {
    for (const [method, path, op] of operations()) {
      const statuses = Object.keys(op.responses);
      const name = `${method} ${path}`;
      expect(statuses, name).toEqual(expect.arrayContaining(['500', '503']));
      expect(op.responses['503'].headers['Retry-After'].required, name).toBe(true);
      if (UNSAFE.includes(method))
        expect(statuses, name).toEqual(expect.arrayContaining(['400', '403', '413', '415']));
      else expect(statuses, name).not.toContain('415');
      expect(statuses, `${name} has no catch-all answer`).not.toContain('default');
    }
  });

  it('401 where a guard can refuse, 429 and the rate-limit headers where a limit counts, Allow on 405, Location on redirects', () => {
    const get = (path: string, method: string) => doc.paths[path][method];
    for (const [path, method] of [
      ['/api/users', 'get'],
      ['/api/streamers', 'put'],
      ['/api/streamers', 'post'],
      ['/api/rater_groups', 'get'],
    ] as const) {
      expect(Object.keys(get(path, method).responses), `${method} ${path}`).toContain('401');
    }
    expect(Object.keys(get('/api/settings', 'get').responses)).not.toContain('401');
    const post = get('/api/comments', 'post');
    expect(post.responses['429'].headers['Retry-After'].required).toBe(true);
    expect(Object.keys(post.responses['201'].headers)).toEqual(
      expect.arrayContaining([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
        'Set-Cookie',
      ]),
    );
    expect(get('/api/oauth/login/{provider}', 'get').responses['302'].headers.Location.required).toBe(true);
    expect(get('/api/oauth/login/{provider}', 'get').responses['302'].content).toBeUndefined();
  });

  it('answers with an ETag declare it, and their 304 has no body', () => {
    for (const path of [
      '/api/streamers',
      '/api/comments',
      '/assets/{file}',
      '/s/{id}/card.png',
      '/badge/{file}',
    ]) {
      const { responses } = doc.paths[path].get;
      expect(responses['304'].content, path).toBeUndefined();
      expect(responses['304'].headers.ETag.required, path).toBe(true);
      expect(responses['200'].headers.ETag, path).toBeDefined();
    }
    // Issue 45 item 26: the images say what they answer.
    expect(Object.keys(doc.paths['/s/{id}/card.png'].get.responses['200'].content)).toEqual(['image/png']);
    expect(Object.keys(doc.paths['/badge/{file}'].get.responses['200'].content)).toEqual([
      'image/svg+xml',
      'image/png',
    ]);
  });

  it('405 is said once, not as operations; every method a path under /api/ lacks gets it, TRACE too, with Allow', async () => {
    expect(doc.info.description).toMatch(/405 `Method not allowed`.*`Allow`/);
    for (const [method, path, op] of operations()) {
      expect(Object.keys(op.responses), `${method} ${path} documents no 405`).not.toContain('405');
    }
    const hidden = t.app.routeList.filter((r) => r.hidden);
    expect(hidden.length).toBeGreaterThan(30);
    const apiPaths = Object.keys(doc.paths).filter(
      (p) => p.startsWith('/api/') && !p.startsWith('/api/auth') && !p.startsWith('/api/oauth'),
    );
    for (const path of apiPaths) {
      const documented = Object.keys(doc.paths[path]).map((m) => m.toUpperCase());
      const url = path.replace(/\{\w+\}/g, '1');
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE'].filter(
        (m) => !documented.includes(m),
      )) {
        const res = await raw(method, url);
        expect(res.status, `${method} ${url}`).toBe(405);
        expect(res.allow?.split(', ').sort(), `${method} ${url}`).toEqual(documented.sort());
      }
    }
  });

  it('an address outside /api/ answers a method it lacks with 405 and Allow: GET; an unknown one and the metrics stay 404', async () => {
    const pages = [
      '/',
      '/upcoming',
      '/s/1',
      '/feed.xml',
      '/s/1/comments.xml',
      '/badge/1.svg',
      '/s/1/card.png',
      '/healthz',
    ];
    for (const path of pages) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE']) {
        const res = await raw(method, path);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.allow, `${method} ${path}`).toBe('GET');
      }
      expect((await raw('GET', path)).status, `GET ${path}`).not.toBe(405);
    }
    for (const path of ['/nothing-here', '/metrics']) {
      expect((await raw('POST', path)).status, `POST ${path}`).toBe(404);
      expect((await raw('TRACE', path)).allow, `TRACE ${path}`).toBeUndefined();
    }
  });

  it('a documented input is as strict as the service: an operation that requires nothing is not refused 400 for an empty request', async () => {
    const admin = await t.admin();
    const user = await t.signedIn(await t.user());
    // Either of two query parameters, which OpenAPI cannot require: the summaries say so.
    const eitherOf = new Set(['delete /api/rater_groups', 'get /api/reviews']);
    const skipped = (path: string) =>
      /^\/api\/(auth|oauth|events|sessions|account$)/.test(path) ||
      !path.startsWith('/api/') ||
      path.includes('{');
    let asked = 0;
    for (const [method, path, op] of operations()) {
      if (skipped(path) || eitherOf.has(`${method} ${path}`)) continue;
      const requiresQuery = (op.parameters ?? []).some((p: Op) => p.in === 'query' && p.required);
      if (requiresQuery || op.requestBody?.required) continue;
      const send = (c: typeof admin) =>
        c.request(method.toUpperCase(), path, method === 'get' ? {} : { body: {} });
      let res = await send(admin);
      if (res.status === 401) res = await send(user);
      asked++;
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).not.toBe(400);
    }
    expect(asked).toBeGreaterThan(15);
    // The example: PUT needs the team's id.
    expect(doc.paths['/api/rater_groups'].put.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'query', required: true }),
    ]);
  });

  it("what the service requires is documented as required: a body of one field at least, the callback's action", async () => {
    const admin = await t.admin();
    const user = await t.user();
    const sid = await t.streamer();
    const team = (await admin.post('/api/rater_groups', { name: `Docs ${sid}` })).body.id as number;
    const comment = (await admin.post('/api/comments', { streamer_id: sid, body: 'A comment to change' }))
      .body.id as number;
    const body = (method: string, path: string) =>
      doc.paths[path][method].requestBody.content['application/json'].schema as { minProperties?: number };
    for (const [path, url] of [
      ['/api/users', `/api/users?id=${user.id}`],
      ['/api/rater_groups', `/api/rater_groups?id=${team}`],
      ['/api/comments', `/api/comments?id=${comment}`],
    ] as const) {
      expect(body('put', path).minProperties, path).toBe(1);
      const res = await admin.put(url, {});
      expect([res.status, res.body.code], path).toEqual([400, 'nothing_to_update']);
    }
    const action = doc.paths['/api/oauth'].get.parameters.find((p: Op) => p.name === 'action');
    expect(action.required).toBe(true);
    expect((await t.client().get('/api/oauth')).status).toBe(404);
    // The limits the service reads with, as the document gives them.
    const push = body('post', '/api/push/subscriptions') as unknown as { properties: Record<string, Op> };
    expect(push.properties.endpoint).toMatchObject({ maxLength: PUSH_LIMITS.endpointMax });
    expect(push.properties.keys?.properties.auth).toMatchObject({
      pattern: PUSH_LIMITS.keyPattern,
      maxLength: PUSH_LIMITS.keyMax,
    });
    const settings = body('put', '/api/settings') as unknown as { properties: Record<string, Op> };
    expect(settings.properties.discord_webhooks?.items.properties.events.maxItems).toBe(MAX_WEBHOOK_EVENTS);
    // A guest's name says which names are refused, and the service refuses them.
    const posted = body('post', '/api/comments') as unknown as { properties: Record<string, Op> };
    const suggestion = body('post', '/api/streamers') as unknown as { properties: Record<string, Op> };
    for (const field of [posted.properties.author, suggestion.properties.submitter]) {
      expect(field?.description).toMatch(/`name_reserved`.*admin, administrator, moderator.*signed in/);
    }
    // A form (text values) is offered where it can make a request: a required true/false is its text.
    const types = (method: string, path: string) => Object.keys(doc.paths[path][method].requestBody.content);
    expect(types('put', '/api/follows')).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(types('post', '/api/comments')).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    const follower = await t.signedIn(user);
    const form = await follower.request('PUT', `/api/follows?streamer_id=${sid}`, {
      form: { follow: 'true' },
    });
    // Taken (not 400 Invalid follow): the streamer, outside the Public view, is what refuses it.
    expect([form.status, form.body.code]).toEqual([404, 'streamer_not_found']);
    const guest = await t
      .client()
      .post('/api/comments', { streamer_id: sid, body: 'a word or two', author: 'M0derator' });
    expect([guest.status, guest.body.code]).toEqual([400, 'name_reserved']);
  });

  it('a body that requires a list is JSON only: a form has no lists', () => {
    const body = (required: string) => ({
      type: 'object',
      required: [required],
      properties: { ids: { type: 'array', items: { type: 'integer' } }, on: { type: 'boolean' } },
    });
    const op = (required: string) => ({
      requestBody: {
        content: {
          'application/json': { schema: body(required) },
          'application/x-www-form-urlencoded': { schema: body(required) },
        },
      },
      responses: {},
    });
    const doc = finishDocument({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/list': { put: op('ids') }, '/flag': { put: op('on') } },
      components: {},
    } as never) as unknown as { paths: Record<string, { put: { requestBody: { content: object } } }> };
    expect(Object.keys(doc.paths['/list']!.put.requestBody.content)).toEqual(['application/json']);
    expect(Object.keys(doc.paths['/flag']!.put.requestBody.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
  });

  it('the session cookie is the security of every operation that reads it', () => {
    const session = doc.components.securitySchemes.session;
    expect(session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'sid' });
    expect(doc.paths['/api/users'].get.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/streamers'].get.security).toEqual([{}, { session: [] }]);
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/api/streamers'].get.responses['200'].headers['Set-Cookie']).toBeDefined();
  });

  it('input is documented as a client should send it: real types, the rules limits, no validation keywords', () => {
    const text = JSON.stringify(doc);
    for (const keyword of ['"errorCode"', '"errorField"', '"documented"', '65536']) {
      expect(text, `${keyword} does not leak into the document`).not.toContain(keyword);
    }
    const schemas = doc.components.schemas;
    const put = doc.paths['/api/streamers'].put.requestBody.content['application/json'].schema.properties;
    expect(put.r).toEqual({ $ref: '#/components/schemas/ScoresInput' });
    expect(schemas.ScoresInput.properties.ns).toEqual({ type: 'integer', minimum: 0, maximum: 10 });
    expect(put.reward).toMatchObject({ type: 'integer', minimum: 0, maximum: LIMITS.reward });
    expect(put.status).toMatchObject({ type: 'string', enum: ['live', 'offline'] });
    expect(put.notes).toMatchObject({
      type: 'string',
      maxLength: LIMITS.notes,
      'x-error-code': 'invalid_field',
    });
    const comment = doc.paths['/api/comments'].post.requestBody;
    expect(comment.required).toBe(true);
    expect(comment.content['application/json'].schema.required).toEqual(['streamer_id', 'body']);
    expect(comment.content['application/json'].schema.properties.body).toMatchObject({
      minLength: LIMITS.commentMin,
      maxLength: LIMITS.commentMax,
    });
    // Form bodies send objects as r[s]=5.
    expect(
      doc.paths['/api/community_ratings'].put.requestBody.content['application/x-www-form-urlencoded']
        .encoding,
    ).toEqual({ r: { style: 'deepObject', explode: true } });
    expect(doc.paths['/api/auth/logout'].post.requestBody).toBeUndefined();
    expect(doc.paths['/api/auth'].post.requestBody.required).toBe(false);
    const ids = doc.paths['/api/streamers'].delete.parameters;
    // Issue 26: `reply=1` removes the streamer's reply instead.
    expect(ids).toEqual([
      expect.objectContaining({ name: 'id', in: 'query', required: true }),
      expect.objectContaining({ name: 'reply', in: 'query', required: false }),
    ]);
    expect(ids[0].schema).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('answers name their types as components, with every field the service always sends required', () => {
    const { Streamer, Comment, Error: ErrorSchema } = doc.components.schemas;
    expect(Streamer.required).toEqual(
      expect.arrayContaining(['id', 'name', 'r', 'reward', 'status', 'comment_count']),
    );
    expect(Streamer.required).not.toContain('notes');
    expect(Comment.required).toEqual(
      expect.arrayContaining(['id', 'author', 'body', 'created_at', 'hidden']),
    );
    expect(ErrorSchema.required).toEqual(['error', 'code']);
    expect(ErrorSchema.properties.code.enum).toEqual(Object.keys(ERRORS));
    expect(doc.paths['/api/streamers'].get.responses['404'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    // /healthz's 503 is an error of its own: with ?detail=1 it names the check that failed.
    const health = doc.paths['/healthz'].get.responses['503'];
    expect(health.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/HealthError' });
    expect(health.headers['Retry-After'].required).toBe(true);
    expect(doc.components.schemas.HealthError.properties.failed.enum).toEqual([
      'unavailable',
      'read_only',
      'disk_full',
    ]);
  });

  it('page addresses are documented as pages', () => {
    for (const path of ['/', '/s/{ref}', '/suggest', '/admin', '/admin/{tab}']) {
      expect(Object.keys(doc.paths[path].get.responses['200'].content), path).toEqual(['text/html']);
    }
    const page = doc.paths['/s/{ref}'].get;
    expect(Object.keys(page.responses['404'].content)).toEqual(['text/html', 'application/json']);
    expect(page.parameters[0]).toMatchObject({ name: 'ref', in: 'path', required: true });
  });

  it('/api/docs is a readable page with no external resources', async () => {
    const res = await t.client().get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('/api/streamers');
    expect(res.text).toContain('Who may call');
    expect(res.text).not.toMatch(/<script|https?:\/\/(?!localhost)[a-z]/i);
    // The site's icon, served: a browser asks for /favicon.ico otherwise and logs its 404.
    const icon = /<link rel="icon" href="([^"]+)"/.exec(res.text)?.[1];
    expect((await t.client().get(icon ?? '/favicon.ico')).status).toBe(200);
  });
});
