import type { FastifyRequest } from 'fastify';
import type { Contact, ContactHash } from '@funnel/lead-store/contact-hash';

/**
 * The audit details of a search whose body may name a person (a lead search, an audit search): the names of the
 * filters given, every other filter's value, and the email and phone only as `emailHash` and `phoneHash`, the
 * contact index's keyed hashes (docs/adr/0025). "Who looked up this person" is then a search of the log by those
 * hashes, with the contact in hand.
 */
export function searchAuditDetails(
  hashes: (contact: Contact) => ContactHash[],
): (request: FastifyRequest) => Record<string, unknown> {
  return (request) => {
    const body = request.body as Contact & Record<string, unknown>;
    const { email, phone, ...filters } = body;
    return {
      filters: Object.keys(body),
      ...filters,
      ...Object.fromEntries(hashes({ email, phone }).map(({ kind, hash }) => [`${kind}Hash`, hash])),
    };
  };
}
