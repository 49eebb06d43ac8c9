/**
 * A throwaway PostgreSQL database for one run, created on the server that BENCH_DATABASE_URL
 * names (default: the local one, user postgres) and dropped at the end.
 */
import pg from 'pg';

export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Throwaway {
  url: string;
  countComments(streamerId: number): Promise<number>;
  drop(): Promise<void>;
}

/** Creates the database; throws when the server cannot be reached or refuses. */
export async function createThrowaway(serverUrl: string): Promise<Throwaway> {
  const name = `bench_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async countComments(streamerId) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        const result = await client.query<{ n: string }>(
          'select count(*) as n from comments where streamer_id = $1',
          [streamerId],
        );
        return Number(result.rows[0]?.n ?? 0);
      } finally {
        await client.end();
      }
    },
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
