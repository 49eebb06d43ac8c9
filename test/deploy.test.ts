/**
 * The deploy kit (deploy/) tried for real: Caddy from Debian's package with `tls internal` in
 * front of two instances on one PostgreSQL database, each started with the command line and
 * environment of the shipped systemd unit; an administrator login, comments and the public
 * list through it. And `nginx -t` on the nginx files, `systemd-analyze verify` on the unit.
 * Runs once (in the SQLite project: it makes its own PostgreSQL database).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ENV, SERVICE_NODE_ARGS } from '../src/node-args.ts';
import { guestTagger } from '../src/plugins/guest-tag.ts';
import { dbKind } from './helpers/database.ts';
import { createPostgres, postgresAnswers, type SoakDatabase } from './soak/lib/database.ts';
import { freePort } from './soak/lib/net.ts';
import { entry, ROOT, ServerProcess } from './helpers/service.ts';

const UNIT = join(ROOT, 'deploy/streamer-rating@.service');
const ADMIN_PASSWORD = 'deploy test administrator password';
const SESSION_SECRET = 'deploy-test-session-secret-0123456789abcdef';
const METRICS_TOKEN = 'deploy-test-metrics-token-0123456789';
const BEARER = { authorization: `Bearer ${METRICS_TOKEN}` };
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** The service's command line and environment from the unit, for instance `instance` (%i). */
export function unitCommand(text: string, instance: string): { argv: string[]; env: Record<string, string> } {
  const lines = text.split('\n').map((l) => l.trim());
  const values = (key: string) =>
    lines
      .filter((l) => l.startsWith(`${key}=`))
      .map((l) => l.slice(key.length + 1).replaceAll('%i', instance));
  const [exec, ...more] = values('ExecStart');
  if (exec === undefined || more.length > 0) throw new Error('the unit must have exactly one ExecStart=');
  const env: Record<string, string> = {};
  for (const assignment of values('Environment')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(\S*)$/.exec(assignment);
    if (!m) throw new Error(`Environment=${assignment}: one VARIABLE=value without spaces per line`);
    env[m[1]!] = m[2]!;
  }
  return { argv: exec.split(/\s+/), env };
}

/** One answer over HTTPS, trusting only `ca`, from the local address `from` (a "client"). */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
function https(
  port: number,
  ca: string,
  from: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        ca,
        localAddress: from,
        agent: false,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const missing = [
  ...(has('caddy') ? [] : ['caddy (apt-get install -y caddy)']),
  ...(has('nginx') ? [] : ['nginx (apt-get install -y nginx)']),
  ...(postgresAnswers() ? [] : ['a PostgreSQL server (TEST_DATABASE_URL or 127.0.0.1:5432)']),
];
const run = dbKind === 'sqlite' && missing.length === 0;
if (dbKind === 'sqlite' && missing.length > 0) {
  console.log(`\n*** Deploy kit test SKIPPED: it needs ${missing.join(', ')}. ***\n`);
}

describe.runIf(run)('the deploy kit, for real', () => {
  // Made when the tests run, not when a skipped file is collected.
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'deploy-test-'));
  });
  const children: ServerProcess[] = [];
  let database: SoakDatabase | undefined;
  afterAll(async () => {
    await Promise.all(children.map((c) => c.stop()));
    await database?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const start = async (name: string, argv: string[], env: Record<string, string>, port?: number) => {
    const [command, ...args] = argv;
    const child = await ServerProcess.spawnProcess({ name, command, args, env, port });
    children.push(child);
    return child;
  };

  it('Caddy with HTTPS in front of two instances started from the unit: login, comments, the public list, limits per client', async () => {
    database = await createPostgres();
    const [p1, p2, httpsPort, httpPort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];

    // The instances: the unit's ExecStart and Environment, the test's variables in place of
    // the EnvironmentFile, the Node.js running this test in place of /usr/bin/node, and the
    // source through tsx in place of the build when the build is older than the source.
    const instances = [p1, p2].map((port) => {
      const { argv, env } = unitCommand(readFileSync(UNIT, 'utf8'), String(port));
      expect(basename(argv[0]!)).toBe('node');
      expect(argv.at(-1)).toBe('dist/src/main.js');
      const script = entry === 'dist' ? ['dist/src/main.js'] : ['--import', 'tsx', 'src/main.ts'];
      return start(
        `instance ${port}`,
        [process.execPath, ...argv.slice(1, -1), ...script],
        {
          PATH: process.env.PATH ?? '',
          ...env,
          DATABASE_URL: database!.url,
          BASE_URL: `https://127.0.0.1:${httpsPort}`,
          TRUST_PROXY: '127.0.0.1',
          ADMIN_PASSWORD,
          LIVE_SYNC_SECONDS: '0',
          // Request lines carry the client each instance saw, by its guest tag (never the address).
          LOG_LEVEL: 'info',
          LOG_REQUESTS: 'true',
          SESSION_SECRET,
          METRICS_TOKEN,
        },
        port,
      );
    });
    const [one, two] = (await Promise.all(instances)) as [ServerProcess, ServerProcess];

    // Both up before Caddy's first health check, or it leaves one out for 5 s.
    for (const instance of [one, two]) await instance.ready(20_000);
    // Caddy: the shipped several-instances file, with a local certificate authority and
    // test ports in place of the host name and Let's Encrypt.
    const shipped = readFileSync(join(ROOT, 'deploy/caddy/Caddyfile.instances'), 'utf8');
    const data = join(dir, 'caddy');
    const caddyfile = [
      [
        /^\{\n(?:\t.*\n)*\}\n/m,
        `{\n\tadmin off\n\tskip_install_trust\n\tstorage file_system ${data}\n\thttp_port ${httpPort}\n\thttps_port ${httpsPort}\n}\n`,
      ],
      ['rating.example.org {', `https://127.0.0.1:${httpsPort} {\n\ttls internal`],
      ['127.0.0.1:3001 127.0.0.1:3002', `127.0.0.1:${p1} 127.0.0.1:${p2}`],
    ].reduce((text, [from, to]) => {
      const next = text.replace(from!, to as string);
      expect(next, `deploy/caddy/Caddyfile.instances has ${String(from)}`).not.toBe(text);
      return next;
    }, shipped);
    writeFileSync(join(dir, 'Caddyfile'), caddyfile);
    const caddy = await start(
      'caddy',
      ['caddy', 'run', '--adapter', 'caddyfile', '--config', join(dir, 'Caddyfile')],
      {
        HOME: dir,
        XDG_DATA_HOME: dir,
        XDG_CONFIG_HOME: dir,
      },
    );

    const rootCa = join(data, 'pki/authorities/local/root.crt');
    await until(
      async () => existsSync(rootCa),
      () => caddy.logs,
    );
    const ca = readFileSync(rootCa, 'utf8');
    const [clientA, clientB] = ['127.0.0.2', '127.0.0.3'];
    await until(
      async () => (await https(httpsPort, ca, clientA, 'GET', '/healthz')).status === 200,
      () => caddy.logs,
    );

    // An administrator logs in over HTTPS: the __Host- cookie, Secure, and HSTS.
    const login = await https(
      httpsPort,
      ca,
      clientA,
      'POST',
      '/api/auth/login',
      {},
      { password: ADMIN_PASSWORD },
    );
    expect(login.status, login.body).toBe(200);
    const cookie = [login.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('__Host-sid='));
    expect(cookie).toMatch(/^__Host-sid=[^;]+; .*Secure/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(login.headers['strict-transport-security']).toBeDefined();
    const admin = { cookie: cookie!.split(';')[0]! };
    const created = await https(httpsPort, ca, clientA, 'POST', '/api/streamers?admin=1', admin, {
      name: 'Behind Caddy',
    });
    expect(created.status, created.body).toBe(201);
    const id = (JSON.parse(created.body) as { id: number }).id;
    const rated = await https(httpsPort, ca, clientA, 'PUT', `/api/streamers?id=${id}`, admin, {
      r: { s: 8, g: 7, a: 6, v: 9, n: 7, ns: 8, o: 9 },
    });
    expect(rated.status, rated.body).toBe(200);
    // The burst challenge (issue 29) would ask from a client's fourth post: the limits alone here.
    const calm = await https(httpsPort, ca, clientA, 'PUT', '/api/settings', admin, {
      guest_challenge: 'off',
    });
    expect(calm.status, calm.body).toBe(200);

    // Comments count per client, not per proxy: client A reaches the limit (10 a minute),
    // its own X-Forwarded-For does not get it a fresh one, and client B is not limited by A.
    const post = (from: string, n: number, headers: Record<string, string> = {}) =>
      https(httpsPort, ca, from, 'POST', '/api/comments', headers, {
        streamer_id: id,
        body: `comment ${n} via Caddy`,
      });
    for (let n = 1; n <= 10; n++) expect((await post(clientA, n)).status).toBe(201);
    const limited = await post(clientA, 11);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await post(clientA, 12, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
    expect((await post(clientB, 13)).status).toBe(201);

    // The public list and the comments, anonymous, through the proxy.
    const list = await https(httpsPort, ca, clientB, 'GET', '/api/streamers');
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body)).toContainEqual(expect.objectContaining({ id, name: 'Behind Caddy' }));
    const thread = await https(httpsPort, ca, clientB, 'GET', `/api/comments?streamer_id=${id}`);
    expect(JSON.parse(thread.body)).toHaveLength(11);

    // Both instances served, and each saw the clients' own addresses, never the proxy's or a
    // forged one: the log names a client by its guest tag (the keyed hash of its address), and
    // the addresses themselves appear nowhere in it.
    const tagOf = guestTagger(SESSION_SECRET);
    const [tagA, tagB, tagLocal] = [clientA, clientB, '127.0.0.1'].map((a) => tagOf(a).slice(0, 10));
    const seen = (child: ServerProcess) =>
      new Set(child.logs.flatMap((l) => [...l.matchAll(/"client":"([^"]+)"/g)].map((m) => m[1])));
    // (127.0.0.1: the health checks, Caddy's and this test's, straight to the instances.)
    const [seenOne, seenTwo] = [seen(one), seen(two)];
    for (const tags of [seenOne, seenTwo]) {
      expect(
        [...tags].some((tag) => tag === tagA || tag === tagB),
        'each instance served clients',
      ).toBe(true);
    }
    expect(new Set([...seenOne, ...seenTwo])).toEqual(new Set([tagA, tagB, tagLocal]));
    const everything = [...one.logs, ...two.logs].join('\n');
    for (const address of [clientA, clientB, '198.51.100.7']) expect(everything).not.toContain(address);

    // /metrics: answered by each instance on its own port to the token, and there it passes
    // promtool's check; never through the proxy, however the path is spelled.
    const scrape = await fetch(`http://127.0.0.1:${p1}/metrics`, { headers: BEARER });
    expect(scrape.status).toBe(200);
    const exposition = await scrape.text();
    expect(exposition).toMatch(/^build_info\{version="[^"]+"\} 1$/m);
    if (has('promtool')) {
      const check = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
      expect(`${check.stdout}${check.stderr}`.trim()).toBe('');
      expect(check.status).toBe(0);
    }
    await expectMetricsBlocked((path, headers) => https(httpsPort, ca, clientA, 'GET', path, headers));

    // nginx: the shipped several-instances file, run for real (in the foreground) on test
    // ports, with a certificate for 127.0.0.1 in place of Let's Encrypt's.
    const nd = mkdtempSync(join(dir, 'nginx-run-'));
    const [nginxHttps, nginxHttp] = [await freePort(), await freePort()];
    const cert = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(nd, 'privkey.pem'),
      '-out',
      join(nd, 'fullchain.pem'),
    ]);
    expect(cert.status).toBe(0);
    const site = [
      ['/etc/letsencrypt/live/rating.example.org', nd],
      ['server 127.0.0.1:3001 ', `server 127.0.0.1:${p1} `],
      ['server 127.0.0.1:3002 ', `server 127.0.0.1:${p2} `],
      ['listen 443 ssl http2;', `listen 127.0.0.1:${nginxHttps} ssl;`],
      ['listen [::]:443 ssl http2;', ''],
      ['listen 80;', `listen 127.0.0.1:${nginxHttp};`],
      ['listen [::]:80;', ''],
    ].reduce(
      (text, [from, to]) => {
        const next = text.replaceAll(from!, to!);
        expect(next, `deploy/nginx/streamer-rating-instances.conf has ${from}`).not.toBe(text);
        return next;
      },
      readFileSync(join(ROOT, 'deploy/nginx/streamer-rating-instances.conf'), 'utf8'),
    );
    writeFileSync(join(nd, 'site.conf'), site);
    writeFileSync(
      join(nd, 'nginx.conf'),
      `daemon off;\nuser root;\npid ${nd}/nginx.pid;\nerror_log ${nd}/error.log;\nevents {}\nhttp {\n  access_log off;\n` +
        ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
          .map((kind) => `  ${kind}_temp_path ${nd}/${kind};\n`)
          .join('') +
        `  include ${nd}/site.conf;\n}\n`,
    );
    const nginx = await start(
      'nginx',
      ['nginx', '-p', nd, '-e', join(nd, 'error.log'), '-c', join(nd, 'nginx.conf')],
      { PATH: process.env.PATH ?? '' },
    );
    const nginxCa = readFileSync(join(nd, 'fullchain.pem'), 'utf8');
    const viaNginx = (path: string, headers: Record<string, string> = {}) =>
      https(nginxHttps, nginxCa, '127.0.0.1', 'GET', path, headers);
    await until(
      async () => (await viaNginx('/healthz')).status === 200,
      () => [...nginx.logs, readFileSync(join(nd, 'error.log'), 'utf8')],
    );
    expect(JSON.parse((await viaNginx('/api/streamers')).body)).toContainEqual(
      expect.objectContaining({ id, name: 'Behind Caddy' }),
    );
    await expectMetricsBlocked(viaNginx);
  }, 90_000);

  it('the single-instance Caddyfile is valid', () => {
    const r = spawnSync(
      'caddy',
      ['validate', '--adapter', 'caddyfile', '--config', join(ROOT, 'deploy/caddy/Caddyfile')],
      {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/"level":"(warn|error)"/);
  });

  it.each([
    ['Caddyfile', false],
    ['Caddyfile.instances', true],
  ])(
    "deploy/caddy/%s checks the instances' health: %s (one instance marked down was every request 503, reads too; stop 96)",
    (file, checks) => {
      const r = spawnSync(
        'caddy',
        ['adapt', '--adapter', 'caddyfile', '--config', join(ROOT, 'deploy/caddy', file)],
        {
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
        },
      );
      expect(r.status, r.stderr).toBe(0);
      // Caddy's own reading of the file: its reverse proxies, and whether any checks actively.
      const proxies: { health_checks?: { active?: unknown } }[] = [];
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(walk);
        else if (node && typeof node === 'object') {
          if ((node as { handler?: string }).handler === 'reverse_proxy') proxies.push(node);
          Object.values(node).forEach(walk);
        }
      };
      walk(JSON.parse(r.stdout));
      expect(proxies.length).toBeGreaterThan(0);
      expect(proxies.every((p) => (p.health_checks?.active !== undefined) === checks)).toBe(true);
    },
  );

  it.each(['streamer-rating.conf', 'streamer-rating-instances.conf'])(
    'nginx -t accepts deploy/nginx/%s',
    (file) => {
      const d = mkdtempSync(join(dir, 'nginx-'));
      const cert = spawnSync('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=rating.example.org',
        '-keyout',
        join(d, 'privkey.pem'),
        '-out',
        join(d, 'fullchain.pem'),
      ]);
      expect(cert.status).toBe(0);
      const site = readFileSync(join(ROOT, 'deploy/nginx', file), 'utf8').replaceAll(
        '/etc/letsencrypt/live/rating.example.org',
        d,
      );
      writeFileSync(join(d, 'site.conf'), site);
      writeFileSync(
        join(d, 'nginx.conf'),
        `pid ${d}/nginx.pid;\nerror_log ${d}/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${d}/site.conf;\n}\n`,
      );
      const r = spawnSync('nginx', ['-t', '-p', d, '-e', join(d, 'error.log'), '-c', join(d, 'nginx.conf')], {
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain('test is successful');
      expect(r.stderr).not.toMatch(/\[warn\]|\[emerg\]/);
    },
  );
});

describe.runIf(dbKind === 'sqlite' && process.getuid?.() === 0)('the command-line wrapper', () => {
  it("runs the tool with deploy/env.example's configuration, as the service's user would", () => {
    const d = mkdtempSync(join(tmpdir(), 'cli-wrapper-'));
    try {
      const env = readFileSync(join(ROOT, 'deploy/env.example'), 'utf8')
        .replace('/var/lib/streamer-rating/', `${d}/`)
        .replace(/^BACKUP_DIR=.*$/m, `BACKUP_DIR=${d}/backups`);
      // README's form of the sender, spaces and angle brackets unquoted (a shell took `<` for a
      // redirection: stop 91's operator walk).
      const mail = 'SMTP_URL=smtp://127.0.0.1:2525\nMAIL_FROM=Streamer rating <no-reply@example.org>\n';
      writeFileSync(join(d, 'env'), env + mail);
      const tool = (...args: string[]) =>
        spawnSync(join(ROOT, 'deploy/streamer-rating-cli'), args, {
          encoding: 'utf8',
          env: {
            PATH: process.env.PATH ?? '',
            APP_DIR: ROOT,
            ENV_FILE: join(d, 'env'),
            SERVICE_USER: 'root',
          },
        });
      // `settings` acts on a database that is there (a first start, or `migrate`, makes it).
      const made = tool('migrate');
      expect(made.status, made.stderr).toBe(0);
      expect(existsSync(join(d, 'streamers.db'))).toBe(true);
      const r = tool('settings', 'get', 'auth_enabled');
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe('false');
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe.runIf(dbKind === 'sqlite')('the systemd unit', () => {
  const text = readFileSync(UNIT, 'utf8');

  it('runs what npm start runs (the same Node.js options, the build), hardened, restarted on failure', () => {
    const { argv, env } = unitCommand(text, '3000');
    expect(argv).toEqual(['/usr/bin/node', ...SERVICE_NODE_ARGS, 'dist/src/main.js']);
    expect(env).toMatchObject({ PORT: '3000', HOST: '127.0.0.1', NODE_ENV: 'production', ...SERVICE_ENV });
    for (const line of [
      'User=streamer-rating',
      'EnvironmentFile=/etc/streamer-rating/env',
      'StateDirectory=streamer-rating',
      'ProtectSystem=strict',
      'NoNewPrivileges=true',
      'PrivateTmp=true',
      'Restart=on-failure',
    ]) {
      expect(text.split('\n'), line).toContain(line);
    }
  });

  it.runIf(has('systemd-analyze'))('systemd-analyze verify finds nothing to say', () => {
    const d = mkdtempSync(join(tmpdir(), 'unit-'));
    try {
      writeFileSync(join(d, 'streamer-rating@.service'), text);
      symlinkSync(join(d, 'streamer-rating@.service'), join(d, 'streamer-rating@3000.service'));
      const r = spawnSync(
        'systemd-analyze',
        ['verify', '--man=no', join(d, 'streamer-rating@3000.service')],
        {
          encoding: 'utf8',
          env: { ...process.env, SYSTEMD_UNIT_PATH: `${d}:` },
        },
      );
      expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});

/** /metrics is refused through a proxy, with the token, in every spelling of its path. */
async function expectMetricsBlocked(
  get: (path: string, headers: Record<string, string>) => Promise<Answer>,
): Promise<void> {
  for (const path of ['/metrics', '/metrics/', '/metrics?x=1', '/%6Detrics', '//metrics', '/./metrics']) {
    const res = await get(path, BEARER);
    expect([path, res.status], res.body).toEqual([path, 404]);
    expect(res.body).not.toContain('http_requests_total');
  }
  expect((await get('/healthz', {})).status).toBe(200);
}

/** Waits (up to 20 s) until `ok` holds; the lines of `output` say why not. */
async function until(ok: () => Promise<boolean>, output: () => string[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if (await ok()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`not ready after 20 s: ${output().slice(-8).join(' | ')}`);
    await sleep(100);
  }
}
