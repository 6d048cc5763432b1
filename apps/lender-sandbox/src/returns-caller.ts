import type { SandboxBuyer, SandboxBuyerStats } from '@funnel/contracts/sandbox-buyers';
import { SeededRandom } from './seeded-random.js';

type ReturnsProfile = NonNullable<SandboxBuyer['returns']>;
type ReturnCounts = NonNullable<SandboxBuyerStats['returns']>;

/**
 * A simulated buyer's returns (issue 27, ADR 0020): of the leads it bought, a seeded share (`rate`, drawn per
 * sale from the buyer's seed and our `ReferenceID`) is returned after a seeded delay, by a call to the product's
 * buyer API with the buyer's key, as a real buyer's back office would. The idempotency key is the reference, so
 * a retried call is the same return. Answers are counted: 201/200 accepted, 4xx refused (window, cap, …),
 * anything else failed.
 */
export class ReturnsCaller {
  readonly #timers = new Set<NodeJS.Timeout>();
  #counts: ReturnCounts = zeroCounts();

  constructor(
    private readonly buyer: { id: string; seed: number },
    private readonly profile: ReturnsProfile,
    /** The product's base URL. */
    private readonly baseUrl: string,
  ) {}

  /** A sale was made under `reference` (our ReferenceID): returns it later when the draw says so. */
  sold(reference: string): void {
    const random = SeededRandom.derive(this.buyer.seed, 'return', reference);
    if (!random.chance(this.profile.rate)) return;
    const delayMs = random.intBetween(this.profile.delayMinMs, this.profile.delayMaxMs);
    const reason = random.pick(this.profile.reasons as [ReturnsProfile['reasons'][number]]);
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#send(reference, reason);
    }, delayMs);
    this.#timers.add(timer);
  }

  counts(): ReturnCounts {
    return { ...this.#counts };
  }

  reset(): void {
    this.close();
    this.#counts = zeroCounts();
  }

  /** Forgets the returns not sent yet. */
  close(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  async #send(reference: string, reason: string): Promise<void> {
    this.#counts.sent += 1;
    try {
      const response = await fetch(`${this.baseUrl}/api/v1/buyer/returns`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.profile.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': `sandbox-return-${reference}`,
        },
        body: JSON.stringify({ reference, reason }),
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel();
      if (response.ok) this.#counts.accepted += 1;
      else if (response.status >= 400 && response.status < 500) this.#counts.refused += 1;
      else this.#counts.failed += 1;
    } catch {
      this.#counts.failed += 1;
    }
  }
}

function zeroCounts(): ReturnCounts {
  return { sent: 0, accepted: 0, refused: 0, failed: 0 };
}
