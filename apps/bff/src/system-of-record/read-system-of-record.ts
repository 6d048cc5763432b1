import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '@funnel/db/database';
import { HttpError } from '../http-error.js';

/**
 * Runs one operator read on the system of record (ADR 0009). Without one configured it answers 503 saying
 * DATABASE_URL is needed; when PostgreSQL fails the read it answers 503 (logged at warn), never a 500: the
 * operator can try again, and nothing a borrower does waits on PostgreSQL.
 */
export async function readSystemOfRecord<T>(
  db: Kysely<Database> | undefined,
  /** What is read, for the messages: 'The reports', 'The privacy-request log'. */
  what: string,
  log: FastifyBaseLogger,
  read: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (!db) {
    throw new HttpError(
      503,
      'UNAVAILABLE',
      `${what} cannot be read without a system of record: set DATABASE_URL.`,
    );
  }
  try {
    return await read(db);
  } catch (error) {
    log.warn({ err: (error as Error).message }, 'operator read failed: system of record unavailable');
    throw new HttpError(503, 'UNAVAILABLE', `${what} cannot be read right now. Please try again shortly.`);
  }
}
