/**
 * SECURITY.md 27, concurrent writers: three instances of the service on one database (a SQLite
 * file, or one PostgreSQL database), all writing at once: comments, suggestions, ratings and
 * group member adds. No 5xx, no SQLITE_BUSY reaches a client, nothing acknowledged is lost,
 * and a group never ends with two owners.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase, type DbKind } from './lib/database.ts';
import { adminBrowser, Browser, createStreamer, expectStatus, signedInBrowser } from './lib/http.ts';
import { Ledger, verifyLedger } from './lib/ledger.ts';
import {
  addMember,
  postComment,
  putRating,
  servedOrShed,
  startWorkers,
  suggestStreamer,
  Tally,
} from './lib/load.ts';
import { Service } from '../helpers/service.ts';
import { dbArgument, Findings, isMain, n, runScript, some, type Verdict } from './lib/verdict.ts';

export interface InstancesOptions {
  instances: number;
  seconds: number;
  /** Clients per kind of write. */
  clients: number;
}

export const FULL: InstancesOptions = { instances: 3, seconds: 60, clients: 3 };

const GROUPS = 2;
const LOGINS = ['soak_ann', 'soak_ben', 'soak_cid', 'soak_dee', 'soak_eve'];

export async function instances(kind: DbKind, o: InstancesOptions = FULL): Promise<Verdict> {
  const name = `instances (${kind})`;
  const findings = new Findings();
  const database = await createDatabase(kind);
  const services: Service[] = [];
  const ledger = new Ledger();
  const tally = new Tally();
  try {
    // The first instance alone creates the schema; starting several at once is concurrent-start.
    services.push(await Service.start({ databaseUrl: database.url, name: 'instance 1' }));
    for (let i = 2; i <= o.instances; i++) {
      services.push(await Service.start({ databaseUrl: database.url, name: `instance ${i}` }));
    }
    const urls = services.map((s) => s.url);
    const admin = await adminBrowser(urls[0]!);
    const commentOn = [
      await createStreamer(admin, 'Instances A'),
      await createStreamer(admin, 'Instances B'),
    ];
    const rated = await Promise.all(
      Array.from({ length: o.clients }, (_, i) => createStreamer(admin, `Instances Rated ${i}`)),
    );
    const groups: number[] = [];
    for (let g = 0; g < GROUPS; g++) {
      const res = await admin.post('/api/rater_groups', { name: `Instances team ${g}` });
      groups.push(expectStatus(res, 201, 'create group').json.id);
    }
    for (const [i, login] of LOGINS.entries()) await signedInBrowser(urls[i % urls.length]!, login);

    const kinds = ['comment', 'suggest', 'rate', 'member'] as const;
    const clients = await Promise.all(
      kinds.flatMap((k) =>
        Array.from({ length: o.clients }, async () =>
          k === 'rate' || k === 'member' ? adminBrowser(urls[0]!) : new Browser(urls[0]!),
        ),
      ),
    );
    const tag = Math.random().toString(36).slice(2, 6);
    const writers = startWorkers(clients.length, (w, i) => {
      const b = clients[w]!;
      b.baseUrl = urls[(w + i) % urls.length]!; // every client writes through every instance
      const slot = w % o.clients;
      switch (kinds[Math.floor(w / o.clients)]) {
        case 'comment':
          return postComment(b, commentOn[i % 2]!, `instances client ${w} comment ${i}`, ledger, tally);
        case 'suggest':
          return suggestStreamer(b, `Suggested ${tag} ${w}-${i}`, ledger, tally);
        case 'rate':
          return putRating(b, rated[slot]!, i + 1, ledger, tally);
        default:
          return addMember(
            b,
            groups[i % GROUPS]!,
            LOGINS[(w + i) % LOGINS.length]!,
            i % 3 ? 'owner' : 'rater',
            ledger,
            tally,
          );
      }
    });
    await sleep(o.seconds * 1000);
    await writers.stop();

    const unexpected = tally.unexpected(servedOrShed);
    const warnings = [...new Set(services.flatMap((s) => s.warnings()))];
    findings.check(
      unexpected.length === 0,
      () => `unexpected answers: ${some(unexpected)}; server warnings: ${some(warnings, 3)}`,
    );
    const busy = [...tally.examples.values()].filter((e) => /SQLITE_BUSY|database is locked/i.test(e));
    const busyLogs = services.flatMap((s) => s.grep(/SQLITE_BUSY|database is locked/i));
    findings.check(busy.length === 0, () => `SQLITE_BUSY reached a client: ${busy[0]}`);
    findings.check(
      busyLogs.length === 0,
      () => `${busyLogs.length} SQLITE_BUSY log lines: ${busyLogs[0]?.slice(0, 200)}`,
    );
    for (const s of services) findings.check(s.alive, () => `${s.name} died: ${s.describeExit()}`);
    findings.check(ledger.acknowledged > 0, 'no write was acknowledged at all');

    const { missing, broken } = await verifyLedger(ledger, urls[urls.length - 1]!);
    findings.check(
      missing.length === 0,
      () => `${missing.length} acknowledged writes lost: ${some(missing)}`,
    );
    findings.check(broken.length === 0, () => `invariant broken: ${some(broken)}`);
  } catch (err) {
    findings.crashed(err, services);
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await database.cleanup();
  }
  const errors = tally.count((s) => s >= 500 || s === 0);
  return findings.verdict(
    name,
    `${o.instances} instances, ${n(tally.requests)} writes, ${n(ledger.acknowledged)} acknowledged, ${n(errors)} 5xx or unanswered`,
  );
}

if (isMain(import.meta.url)) {
  const kind = dbArgument();
  await runScript(`instances (${kind})`, () => instances(kind));
}
