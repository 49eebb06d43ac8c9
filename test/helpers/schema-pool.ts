/**
 * PostgreSQL: the migrated schemas a test worker has finished with, made clean and kept for
 * its next app (database.ts createMigratedDatabase), instead of migrating a new schema every
 * time (about 2 s each; docs/benchmarks.md "Migrated schemas reused within a test worker").
 *
 * Clean is what a freshly migrated schema is: every table emptied, the rows the migrations
 * insert (their own bookkeeping, the log cursors) put back, every sequence (identities
 * included) where a fresh schema's is. That is recorded once a process, from its
 * first freshly migrated schema. A schema is kept only when nothing but this process's other
 * schemas (their pools are named after them) is connected to the worker's database (a second
 * instance or a child process left running could write to it) and its catalogue is the fresh one's (a test altered or dropped
 * a table); otherwise it is dropped, as every schema was before. Sessions are gone by then, so
 * their advisory locks, LISTENs and settings are too; the workers' databases, kept schemas
 * and all, are dropped at the end of the run (dropWorkerDatabases).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/** A fresh schema, as recorded once a process: its catalogue's digest, and how to get back to it. */
interface Fresh {
  fingerprint: string;
  /** The statements that make `schema` clean (one transaction). */
  reset(schema: string): string;
}

let fresh: Promise<Fresh> | undefined;
/** Clean schemas, by the database they are in; the last kept is the first taken. */
const kept: { base: string; schema: string }[] = [];
/**
 * Every schema this process has used, in use or done with: their connections are named after
 * them (application_name), and one named after another schema is no writer of the schema at hand.
 */
const ours = new Set<string>();

/** The change listener's connection (db/other-instances.ts): it listens and touches no table. */
const LISTENER = 'streamer-rating-listen';

/** A kept schema of the database at `base`, if there is one; in use from now. */
export function takeKept(base: string): string | undefined {
  const i = kept.findLastIndex((k) => k.base === base);
  if (i < 0) return undefined;
  return kept.splice(i, 1)[0]!.schema;
}

/** A schema of this process in use (a new one, migrated or not). */
export function using(schema: string): void {
  ours.add(schema);
}

/** Records, once a process, what a freshly migrated schema holds (`client` on its database). */
export async function learnFresh(client: pg.Client, schema: string): Promise<void> {
  fresh ??= record(client, schema);
  await fresh.catch(() => (fresh = undefined));
}

/**
 * A schema's tests are done and its connections closed: kept clean if it can be, dropped
 * otherwise (`drop`, as before). Answers whether it was kept.
 */
export async function keepOrDrop(
  client: pg.Client,
  base: string,
  schema: string,
  drop: () => Promise<void>,
): Promise<boolean> {
  const f = fresh && (await fresh.catch(() => undefined));
  if (f && (await alone(client, schema)) && (await fingerprint(client, schema)) === f.fingerprint) {
    try {
      await client.query(f.reset(schema));
      kept.push({ base, schema });
      return true;
    } catch {
      await client.query('rollback').catch(() => undefined);
    }
  }
  await drop();
  return false;
}

/**
 * Whether nothing writes to `schema` but `client`: no connection to the database is left but
 * the change listener's and those named after this process's other schemas (in use, or done
 * with and still closing: an earlier file's pool once outlasted any wait, stops 107 and 108).
 * The schema's own pool, just closed, may still show its server processes for a while on a
 * loaded machine (stop 106's CI: more than 100 ms): its connections, and any without one of
 * our names, are waited for up to 2 s. One still there then (a second instance not closed, a
 * child process) means the schema is dropped.
 */
async function alone(client: pg.Client, schema: string): Promise<boolean> {
  const others = [...ours].filter((s) => s !== schema);
  for (let look = 0; look < 200; look++) {
    const { rows } = await client.query(
      `select 1 from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
          and backend_type = 'client backend' and not (application_name = any($1))
        limit 1`,
      [[...others, LISTENER]],
    );
    if (rows.length === 0) return true;
    await sleep(10);
  }
  return false;
}

/** A digest of a schema's catalogue, its name left out; null if there is no such schema. */
export async function fingerprint(client: pg.Client, schema: string): Promise<string | null> {
  const { rows } = await client.query<{ f: string | null }>(FINGERPRINT, [schema]);
  return rows[0]?.f ?? null;
}

const FINGERPRINT = `
with n as (select oid, nspacl, nspowner from pg_namespace where nspname = $1),
rel as (select c.* from pg_class c join n on c.relnamespace = n.oid),
line as (
  select 'schema ' || coalesce(nspacl::text, '') || nspowner::regrole::text as l from n
  union all
  select 'relation ' || relname || ' ' || relkind::text || relpersistence::text || relrowsecurity::text
    || coalesce(relacl::text, '') || coalesce(reloptions::text, '') from rel
  union all
  select 'column ' || r.relname || '.' || a.attname || ' ' || a.attnum || ' '
    || format_type(a.atttypid, a.atttypmod) || a.attnotnull::text || a.attidentity::text
    || a.attgenerated::text || a.attisdropped::text || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    from pg_attribute a join rel r on r.oid = a.attrelid
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where a.attnum > 0
  union all
  select 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(c.oid)
    from pg_constraint c join n on c.connamespace = n.oid
  union all
  select 'index ' || pg_get_indexdef(i.indexrelid) from pg_index i join rel r on r.oid = i.indexrelid
  union all
  select 'trigger ' || pg_get_triggerdef(t.oid) || t.tgenabled::text
    from pg_trigger t join rel r on r.oid = t.tgrelid where not t.tgisinternal
  union all
  select 'rule ' || pg_get_ruledef(w.oid) from pg_rewrite w join rel r on r.oid = w.ev_class
  union all
  select 'policy ' || r.relname || ' ' || p.polname || coalesce(pg_get_expr(p.polqual, p.polrelid), '')
    from pg_policy p join rel r on r.oid = p.polrelid
  union all
  select 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') '
    || md5(coalesce(p.prosrc, '')) || coalesce(p.proconfig::text, '') || coalesce(p.proacl::text, '')
    from pg_proc p join n on p.pronamespace = n.oid
  union all
  select 'sequence ' || r.relname || ' ' || s.seqstart || ' ' || s.seqincrement || ' '
    || s.seqmin || ' ' || s.seqmax || s.seqcycle::text
    from pg_sequence s join rel r on r.oid = s.seqrelid
  union all
  select 'type ' || t.typname || t.typtype::text || coalesce((select string_agg(enumlabel, ',' order by enumsortorder)
    from pg_enum where enumtypid = t.oid), '')
    from pg_type t join n on t.typnamespace = n.oid where t.typtype in ('e', 'd', 'r', 'm')
)
select case when exists (select from n)
  then md5(replace(string_agg(l, E'\\n' order by l), $1 || '.', '')) end as f
from line`;

const id = (name: string) => pg.escapeIdentifier(name);

/** What the migrations left in `schema`: its catalogue's digest, the rows they inserted, its sequences. */
async function record(client: pg.Client, schema: string): Promise<Fresh> {
  const f = await fingerprint(client, schema);
  if (!f) throw new Error(`no schema ${schema}`);
  const { rows: tables } = await client.query<{ name: string; kind: string; columns: string[] }>(
    `select c.relname as name, c.relkind as kind,
        array(select attname::text from pg_attribute where attrelid = c.oid and attnum > 0
          and not attisdropped and attgenerated = '' order by attnum) as columns
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p', 'm') order by c.relname`,
    [schema],
  );
  if (tables.some((t) => t.kind === 'm')) throw new Error('a materialized view: not kept');
  const seeded: { name: string; columns: string[]; json: string }[] = [];
  for (const t of tables) {
    const { rows } = await client.query<{ json: string | null }>(
      `select json_agg(x)::text as json from ${id(schema)}.${id(t.name)} x`,
    );
    if (rows[0]?.json) seeded.push({ ...t, json: rows[0].json });
  }
  const { rows: sequences } = await client.query<{ name: string; last: string | null; start: string }>(
    `select sequencename as name, last_value::text as last, start_value::text as start
      from pg_sequences where schemaname = $1 order by sequencename`,
    [schema],
  );
  // A test's few rows are deleted in milliseconds, its triggers and foreign keys aside (replica);
  // a TRUNCATE makes every table's and index's files anew: 0.9-1.6 s on a loaded machine.
  const empty = (await replicaAllowed(client))
    ? ['set local session_replication_role = replica;', ...tables.map((t) => `delete from ${id(t.name)};`)]
    : [`truncate table ${tables.map((t) => id(t.name)).join(', ')} restart identity cascade;`];
  const seeds = seeded.map((t) => {
    const cols = t.columns.map(id).join(', ');
    return `insert into ${id(t.name)} (${cols}) overriding system value select ${cols} from json_populate_recordset(null::${id(t.name)}, ${pg.escapeLiteral(t.json)});`;
  });
  const setvals = sequences.map(
    (s) => `select setval(${pg.escapeLiteral(id(s.name))}, ${s.last ?? s.start}, ${s.last !== null});`,
  );
  return {
    fingerprint: f,
    reset: (target) => {
      const steps = [...empty, ...seeds, ...setvals];
      return ['begin;', `set local search_path to ${id(target)};`, ...steps, 'commit;'].join('\n');
    },
  };
}

/** Whether this role may turn triggers and foreign keys off (a superuser, or granted the setting). */
async function replicaAllowed(client: pg.Client): Promise<boolean> {
  try {
    await client.query('begin; set local session_replication_role = replica; rollback;');
    return true;
  } catch {
    await client.query('rollback').catch(() => undefined);
    return false;
  }
}
