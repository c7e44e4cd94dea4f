import { randomUUID } from 'node:crypto';
import pg from 'pg';

export type PostgresDatabase = { url: string; drop: () => Promise<void> };

/**
 * A new, empty database on the PostgreSQL server of TEST_POSTGRES_URL (its user may create
 * databases), and how to drop it. Every test app and every multi-process test gets its own, so
 * they never see each other's rows.
 */
export async function createPostgresDatabase(serverUrl: string): Promise<PostgresDatabase> {
  // Database names cannot be bound parameters; this one is made of hex digits only.
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  await withClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}

async function withClient(serverUrl: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
