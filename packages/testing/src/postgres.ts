import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testEnv } from './env.js';

/**
 * The PostgreSQL tests use (`testEnv.databaseUrl`). Each test works in a schema of its own and drops it
 * afterwards, so runs can share the server.
 */
export function testDatabaseUrl(): string {
  return testEnv.databaseUrl;
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
