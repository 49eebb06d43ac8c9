import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';

const t = await useApp({ DEV_PROVIDERS: 'true' });

describe('API documentation', () => {
  it('/api/openapi.json is a valid OpenAPI 3.1 document', async () => {
    const res = await t.client().get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('contains every route the app registers, with who may call it and its responses', async () => {
    const doc = (await t.client().get('/api/openapi.json')).body;
    const toPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{*}');
    const routes = t.app.routeList.filter((r) => r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(30);
    for (const r of routes) {
      const op = doc.paths[toPath(r.url)]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.url} is documented`).toBeDefined();
      expect(op.description).toMatch(/Who may call:/);
      expect(op.summary, `${r.method} ${r.url} has a summary in its route schema`).toBeTruthy();
      expect(Object.keys(op.responses).length).toBeGreaterThan(0);
    }
    const put = doc.paths['/api/streamers'].put;
    expect(put.summary).toContain('Rate');
    expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    expect(put.responses['403'].description).toContain('Admin only');
    expect(Object.keys(put.requestBody.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
  });

  it('/api/docs is a readable page with no external resources', async () => {
    const res = await t.client().get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('/api/streamers');
    expect(res.text).toContain('Who may call');
    expect(res.text).not.toMatch(/<script|https?:\/\/(?!localhost)[a-z]/i);
  });
});
