// Types for services.mjs, for the TypeScript that imports it (packages/testing's vitest global setup).
import type { ChildProcess } from 'node:child_process';

/** A service found or started: its URL, how it was chosen (in words), and what stops it (nothing for a found one). */
export interface FoundService {
  url: string;
  how: string;
  stop(): Promise<void>;
}

export const LOCAL_REDIS_URL: string;
export const LOCAL_POSTGRES_HOST: string;
export const NO_REDIS_MESSAGE: string;
export function redisAnswers(url: string): Promise<boolean>;
export function postgresAnswers(url: string): Promise<boolean>;
export function hasRedisServer(): boolean;
export function freePort(): Promise<number>;
export function startPrivateRedis(options?: {
  port?: number;
  dataDir?: string;
}): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }>;
export function findRedis(options?: {
  url?: string;
  strict?: boolean;
  privatePort?: number;
  privateDataDir?: string;
  containers?: boolean;
}): Promise<FoundService>;
export function findPostgres(options: {
  url?: string;
  variable?: string;
  localUrl: string;
  skipProbe?: boolean;
  containers?: boolean;
  pgliteDataDir?: string;
  loadPglite?: () => Promise<PgliteModule>;
}): Promise<FoundService>;

/** What findPostgres needs of packages/db/src/pglite-server.ts. */
export interface PgliteModule {
  startPgliteServer(options?: { dataDir?: string }): Promise<{ url: string; stop(): Promise<void> }>;
}

export interface TestServices {
  redisUrl: string;
  databaseUrl: string;
  /** The one line saying which services were chosen. */
  line: string;
  stop(): Promise<void>;
}
export function findTestServices(
  env?: NodeJS.ProcessEnv,
  options?: { loadPglite?: () => Promise<PgliteModule> },
): Promise<TestServices>;
