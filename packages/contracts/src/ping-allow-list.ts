/** What the sandbox's recording checks of every ping: nothing beyond the allow-list, whatever its values. */
import { PingFieldsSchema, PingPayloadSchema } from './ping-post-network.js';

const PING_TOP_LEVEL = new Set(Object.keys(PingPayloadSchema.shape));
const PING_FIELDS = new Set(Object.keys(PingFieldsSchema.shape));

/**
 * The names of everything a ping body carries beyond the allow-list ({@link PingPayloadSchema}, whose every
 * field is a band, a code or a boolean): `[]` for a clean ping. What the sandbox's recording counts, so it
 * proves that no ping carried an identifying field, whatever its values.
 */
export function pingFieldsBeyondAllowList(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const extra = Object.keys(body).filter((key) => !PING_TOP_LEVEL.has(key));
  const fields = (body as { Fields?: unknown }).Fields;
  if (typeof fields === 'object' && fields !== null) {
    extra.push(
      ...Object.keys(fields)
        .filter((key) => !PING_FIELDS.has(key))
        .map((key) => `Fields.${key}`),
    );
  }
  return extra;
}
