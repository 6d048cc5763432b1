import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { buyerFieldMessages } from '@funnel/contracts/buyer-admin';
import { BuyersFileSchema, type Buyer, type BuyersFile } from '@funnel/contracts/buyers';
import {
  currentBuyerConfig,
  importBuyersIfEmpty,
  saveBuyerConfig,
  type BuyerConfig,
  type BuyerConfigChange,
} from '@funnel/db/buyer-config';
import type { ContactSealer } from '@funnel/db/consent-archive';
import type { Database } from '@funnel/db/database';
import { publishBuyerConfigChange } from '@funnel/server-runtime/buyer-config-signal';
import type { ReportFailure } from '../handled-failure.js';
import { hostOf, refusedAddressOf, type AddressAllowList } from '@funnel/server-runtime/network-address';
import { HttpError } from '../http-error.js';
import type { Changer } from './buyer-admin-http.js';
import { reviewCredentials } from './buyer-credentials.js';

/** What a change proposes: the whole document as it would be (not yet validated) and the paused buyers. */
export interface ProposedBuyers {
  document: unknown;
  paused: readonly string[];
  action: BuyerConfigChange['action'];
  summary: string;
  /** The buyer being created or edited: its issues are named by its own field names (`filters.states`). */
  buyerIndex?: number;
}

/** How long the return terms read from the system of record are reused before being read again. */
const TERMS_CACHE_MS = 2000;

/**
 * The buyers document as the BFF manages it (ADR 0022): read from the system of record (the BUYERS_FILE imported
 * first when it holds none), changed only by a new version that passes the buyers file's schema, and announced
 * to the workers. A refused change writes nothing, so the running buyers stay as they are.
 */
export class LiveBuyers {
  #terms: { file: BuyersFile | undefined; at: number } | undefined;

  constructor(
    private readonly options: {
      redis: Redis;
      keyPrefix: string;
      sealer: ContactSealer;
      /** BUYERS_FILE, imported while the system of record holds no version. */
      file: BuyersFile | undefined;
      reportFailure: ReportFailure;
      /** The non-public ranges a buyer's address may be in (BUYER_PRIVATE_RANGES). */
      addresses: AddressAllowList;
    },
  ) {}

  /** The newest version (importing BUYERS_FILE first when there is none); 404 when there is no document at all. */
  async current(db: Kysely<Database>): Promise<BuyerConfig> {
    let config = await currentBuyerConfig(db, this.options.sealer);
    if (!config && this.options.file) {
      await importBuyersIfEmpty(db, this.options.sealer, this.options.file);
      config = await currentBuyerConfig(db, this.options.sealer);
    }
    if (!config) {
      throw new HttpError(404, 'NOT_FOUND', 'No buyers are configured: import a buyers file first.');
    }
    return config;
  }

  /**
   * Applies `propose` to the newest version and saves the result as the next version, then tells the workers.
   * A document that fails the schema is refused with its field messages (400), as is a buyer's new address that
   * is (or resolves to) a non-public one outside BUYER_PRIVATE_RANGES; a manager adding a buyer or setting an
   * address or a credential is refused (403, ADR 0024); a version made meanwhile by someone else is a 409, and
   * nothing is written in any of these cases. A buyer moved to another origin without a new credential loses
   * the one it had ({@link reviewCredentials}).
   */
  async change(
    db: Kysely<Database>,
    who: Changer,
    propose: (current: BuyerConfig | undefined) => ProposedBuyers,
  ): Promise<BuyerConfig> {
    const current = await currentBuyerConfig(db, this.options.sealer);
    const proposed = propose(current);
    const parsed = BuyersFileSchema.safeParse(proposed.document);
    if (!parsed.success) {
      const fields = buyerFieldMessages(parsed.error, proposed.buyerIndex);
      throw new HttpError(400, 'VALIDATION_FAILED', Object.values(fields)[0] ?? 'Invalid buyers.', fields);
    }
    const review = reviewCredentials(current, parsed.data);
    if (who.role !== 'admin' && (review.addressed.length > 0 || review.keyed.length > 0)) {
      throw new HttpError(
        403,
        'FORBIDDEN',
        'Only an admin adds a buyer or changes a buyer’s address (baseUrl) or credential (apiKey).',
      );
    }
    await this.#refuseNonPublic(review.addressed, parsed.data, proposed.buyerIndex);
    const ids = new Set(parsed.data.buyers.map((buyer) => buyer.id));
    const change: BuyerConfigChange = {
      accountId: who.accountId,
      actor: who.actor,
      action: proposed.action,
      summary:
        proposed.summary +
        (review.dropped.length > 0
          ? `; credential dropped (moved to another origin): ${review.dropped.join(', ')}`
          : ''),
      file: review.file,
      paused: proposed.paused.filter((id) => ids.has(id)),
      keysNeeded: review.keysNeeded,
    };
    const saved = await saveBuyerConfig(db, this.options.sealer, current?.version ?? 0, change);
    if (saved === 'conflict') {
      throw new HttpError(409, 'CONFLICT', 'The buyers were changed meanwhile: reload them and try again.');
    }
    this.#terms = undefined;
    await publishBuyerConfigChange(this.options.redis, this.options.keyPrefix, saved.version);
    return {
      version: saved.version,
      at: new Date(),
      actor: who.actor,
      file: review.file,
      paused: [...change.paused],
      keysNeeded: review.keysNeeded,
    };
  }

  /**
   * Refuses (400, on each buyer's `baseUrl`) an address set by this change that is, or whose name resolves to, a
   * loopback, link-local or private address outside BUYER_PRIVATE_RANGES, or a name that does not resolve. The
   * workers check again at each connection (the name may point elsewhere later): this tells the admin now.
   */
  async #refuseNonPublic(addressed: readonly Buyer[], file: BuyersFile, buyerIndex: number | undefined) {
    const fields: Record<string, string> = {};
    await Promise.all(
      addressed.map(async (buyer) => {
        const index = file.buyers.indexOf(buyer);
        const field = index === buyerIndex ? 'baseUrl' : `buyers.${index}.baseUrl`;
        const host = hostOf(new URL(buyer.baseUrl));
        try {
          const refused = await refusedAddressOf(host, this.options.addresses);
          if (refused) {
            fields[field] =
              `${host === refused ? refused : `${host} resolves to ${refused}, which`} is a loopback, link-local ` +
              'or private address: buyers are called there only when BUYER_PRIVATE_RANGES lists its range.';
          }
        } catch {
          fields[field] = `${host} does not resolve to an address: check the host name.`;
        }
      }),
    );
    const messages = Object.values(fields);
    if (messages.length > 0) throw new HttpError(400, 'VALIDATION_FAILED', messages[0]!, fields);
  }

  /**
   * The buyers file the return terms are read from (ADR 0020): the newest version, re-read at most every 2 s;
   * BUYERS_FILE without a system of record, or while it cannot be read.
   */
  async returnTerms(db: Kysely<Database> | undefined, now: number): Promise<BuyersFile | undefined> {
    if (!db) return this.options.file;
    if (this.#terms && now - this.#terms.at < TERMS_CACHE_MS) return this.#terms.file;
    try {
      const config = await currentBuyerConfig(db, this.options.sealer);
      this.#terms = { file: config?.file ?? this.options.file, at: now };
      return this.#terms.file;
    } catch (error) {
      this.options.reportFailure('buyer_return_terms', error);
      return this.#terms?.file ?? this.options.file;
    }
  }
}
