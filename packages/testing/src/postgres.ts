import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL tests use: `TEST_DATABASE_URL` when set, else the machine's at 127.0.0.1:5432 (database
 * `test`). Each test works in a schema of its own and drops it afterwards, so runs can share the server.
 */
export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/** A schema name no other run uses. */
export function testSchema(label: string): string {
  return `t_${label}_${randomBytes(5).toString('hex')}`.toLowerCase();
}

/** Drops `schema` and everything in it. */
export async function dropSchema(schema: string, url = testDatabaseUrl()): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema.replace(/"/g, '')}" cascade`);
  } finally {
    await client.end();
  }
}
