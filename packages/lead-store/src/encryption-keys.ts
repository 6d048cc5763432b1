import * as z from 'zod';
import { commaList } from '@funnel/server-runtime/env-fields';

/**
 * `FIELD_ENCRYPTION_KEYS`: comma-separated `id:base64key` pairs of 32-byte AES-256 keys. The first seals new
 * values; every listed key opens (rotation).
 */
export const EncryptionKeysSchema = commaList.pipe(
  z
    .array(
      z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,16}:[A-Za-z0-9+/=]+$/, 'expected id:base64key')
        .transform((pair) => {
          const [id, key] = pair.split(':') as [string, string];
          return { id, key: Buffer.from(key, 'base64') };
        })
        .refine((k) => k.key.length === 32, 'each key must be 32 bytes (AES-256), base64-encoded'),
    )
    .min(1),
);
