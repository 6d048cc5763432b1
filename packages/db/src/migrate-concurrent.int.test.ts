import pg from 'pg';
import { expect, it } from 'vitest';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { migrate, openDatabase } from './database.js';

// Tests share one PostgreSQL server, each in a schema of its own, created and dropped as they come and go. Kysely's
// migrator reads the catalog of every schema, and one dropped during that read failed another test's migration
// ("schema … does not exist"; seen in a CI run).
it('migrates a schema while other schemas are created and dropped all along', async () => {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  const churned = testSchema('churn');
  let stop = false;
  const churn = (async () => {
    while (!stop) {
      await client.query(
        `create schema ${churned}; create table ${churned}.a (x int); create table ${churned}.b (x int)`,
      );
      await client.query(`drop schema ${churned} cascade`);
    }
  })();
  const failures: string[] = [];
  try {
    for (let i = 0; i < 12; i++) {
      const schema = testSchema('migrate');
      const db = openDatabase({ url: testDatabaseUrl(), schema });
      await migrate(db, schema).catch((error: unknown) => failures.push(String(error)));
      await db.destroy();
      await dropSchema(schema);
    }
  } finally {
    stop = true;
    await churn;
    await client.end();
  }
  expect(failures).toEqual([]);
});
