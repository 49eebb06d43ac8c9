import { createECDH, createHmac, createDecipheriv, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Web Push service (a real HTTP server on 127.0.0.1), answering as FCM or Mozilla's
 * autopush do: 201 for a message it takes, 404/410 for a subscription that is gone, 429 with
 * `Retry-After`, 500, or no answer at all. It decrypts nothing itself; it checks each request's
 * shape (a VAPID `Authorization: vapid t=<JWT>, k=<key>` whose ES256 signature verifies with
 * `k` and whose `aud` is this origin, `Content-Encoding: aes128gcm`, `TTL`, `Urgency`) and
 * records every request. The test makes each device's keys (`device()`), and decrypts what
 * was sent to it with `decrypt` (RFC 8291, by hand: test code).
 */

/**
 * 'hang': never answered; 'held': answered 201 when the test says (`answerHeld`); 'garbled': a
 * 201 with a header Node.js's parser refuses (a control character in its value).
 */
export type Scripted = 201 | 404 | 410 | 429 | 500 | 'hang' | 'held' | 'garbled';

export interface PushRequest {
  device: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** What was wrong with the request's shape, or null. */
  problem: string | null;
  /** The VAPID key (`k`) that signed it. */
  vapidKey: string | null;
  /** The JWT's claims. */
  claims: Record<string, unknown> | null;
}

export interface Device {
  id: string;
  endpoint: string;
  /** The subscription the browser would give. */
  keys: { p256dh: string; auth: string };
  ecdh: ReturnType<typeof createECDH>;
  authSecret: Buffer;
}

export interface FakePush {
  /** PUSH_SERVICE_URL for the service. */
  serviceUrl: string;
  origin: string;
  requests: PushRequest[];
  device(): Device;
  /** The next answers to this device (then 201 again); a 429 carries `retryAfter` (text). */
  script(device: Device, answers: Scripted[], retryAfter?: string): void;
  /** Requests the service took (201), of one device or all. */
  delivered(device?: Device): PushRequest[];
  /** The JSON a request carried, decrypted with its device's keys. */
  payload(request: PushRequest): Record<string, unknown>;
  hanging(): number;
  /** Requests held for the test, in the order they came. */
  holding(): number;
  /** Answers the `count` oldest held requests 201 (their records' status becomes 201). */
  answerHeld(count: number): void;
  /** Resolves once `count` requests are held. */
  whenHolding(count: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 §3.4 and RFC 8188: the plaintext of one aes128gcm body for the device's keys. */
export function decrypt(
  body: Buffer,
  device: { ecdh: ReturnType<typeof createECDH>; authSecret: Buffer },
): Buffer {
  const salt = body.subarray(0, 16);
  const idlen = body[20] ?? 0;
  const senderKey = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const uaPublic = device.ecdh.getPublicKey();
  const secret = device.ecdh.computeSecret(senderKey);
  const prkKey = hmac(device.authSecret, secret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, senderKey, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('not the last record: delimiter missing');
  return padded.subarray(0, end);
}

/** Checks `Authorization: vapid t=<JWT>, k=<key>` (RFC 8292): an ES256 JWT that `k` verifies. */
function checkVapid(header: string | undefined, origin: string, now: number) {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!m) return { problem: 'Authorization is not "vapid t=<jwt>, k=<key>"', key: null, claims: null };
  const [, jwt = '', key = ''] = m;
  const [head = '', body = '', signature = ''] = jwt.split('.');
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65) return { problem: 'k is not a P-256 point', key, claims: null };
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  const header_ = JSON.parse(Buffer.from(head, 'base64url').toString()) as Record<string, unknown>;
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
  if (!ok || header_.alg !== 'ES256') return { problem: 'the JWT does not verify with k', key, claims };
  if (claims.aud !== origin) return { problem: `aud is ${String(claims.aud)}`, key, claims };
  const exp = Number(claims.exp) * 1000;
  if (!(exp > now) || exp > now + 24 * 3600_000)
    return { problem: 'exp is not within 24 hours', key, claims };
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) {
    return { problem: 'sub is not mailto: or https:', key, claims };
  }
  return { problem: null, key, claims };
}

export async function startFakePush(): Promise<FakePush> {
  const devices = new Map<string, Device>();
  const scripts = new Map<string, { answers: Scripted[]; retryAfter: string }>();
  const held = new Set<ServerResponse>();
  const waiting: { res: ServerResponse; request: PushRequest }[] = [];
  let heard: (() => void) | null = null;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
      const body = Buffer.concat(chunks);
      const vapid = checkVapid(req.headers.authorization, fake.origin, Date.now());
      let problem = vapid.problem;
      if (req.headers['content-encoding'] !== 'aes128gcm') problem ??= 'Content-Encoding is not aes128gcm';
      if (!/^\d+$/.test(String(req.headers.ttl ?? ''))) problem ??= 'TTL missing';
      const record = (status: number) =>
        fake.requests.push({
          device: id,
          status,
          headers: req.headers,
          body,
          problem,
          vapidKey: vapid.key,
          claims: vapid.claims,
        });
      if (req.method !== 'POST' || !devices.has(id)) {
        record(404);
        return res.writeHead(404).end();
      }
      if (problem) {
        record(problem.startsWith('Content') ? 400 : 403);
        return res.writeHead(problem.startsWith('Content') ? 400 : 403).end(problem);
      }
      const script = scripts.get(id);
      const next = script?.answers.shift() ?? 201;
      if (next === 'held') {
        record(0);
        waiting.push({ res, request: fake.requests.at(-1)! });
        heard?.();
        return;
      }
      if (next === 'hang') {
        record(0);
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      if (next === 'garbled') {
        record(0);
        res.socket?.end('HTTP/1.1 201 Created\r\nLocation: /m\x01\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      record(next);
      res.writeHead(next, next === 429 ? { 'retry-after': script?.retryAfter ?? '1' } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const fake: FakePush = {
    serviceUrl: `${origin}/push/`,
    origin,
    requests: [],
    device() {
      const id = randomBytes(12).toString('base64url');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = randomBytes(16);
      const device: Device = {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') },
        ecdh,
        authSecret,
      };
      devices.set(id, device);
      return device;
    },
    script(device, answers, retryAfter = '1') {
      scripts.set(device.id, { answers: [...answers], retryAfter });
    },
    delivered(device) {
      return fake.requests.filter(
        (r) => r.status === 201 && (device === undefined || r.device === device.id),
      );
    },
    payload(request) {
      const device = devices.get(request.device);
      if (!device) throw new Error('unknown device');
      return JSON.parse(decrypt(request.body, device).toString('utf8')) as Record<string, unknown>;
    },
    hanging: () => held.size,
    holding: () => waiting.length,
    answerHeld(count) {
      for (const { res, request } of waiting.splice(0, count)) {
        request.status = 201;
        res.writeHead(201).end();
      }
    },
    async whenHolding(count) {
      while (waiting.length < count) await new Promise<void>((resolve) => (heard = resolve));
      heard = null;
    },
    reset() {
      fake.requests.length = 0;
      scripts.clear();
    },
    close: async () => {
      for (const res of held) res.destroy();
      for (const { res } of waiting.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
