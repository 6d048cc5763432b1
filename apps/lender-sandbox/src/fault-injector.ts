import type { FaultKind } from '@funnel/contracts/lender-sandbox';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './error-handler.js';
import type { OutcomeConfig } from './sandbox-config.js';
import { SeededRandom } from './seeded-random.js';

/**
 * What the network means to answer to one protocol request, before faults. `drawKey` names the request
 * (e.g. our lead id and its attempt number) so its latency and fault are drawn reproducibly.
 */
export interface ProtocolAnswer {
  statusCode: number;
  body: object;
  drawKey: readonly string[];
}

export interface DeliveryPlan {
  latencyMs: number;
  fault: FaultKind | undefined;
  /** Status of an injected server error. */
  serverErrorStatus: 500 | 502 | 503;
}

/** Draws the latency and the fault (at most one) for a request. */
export function planDelivery(config: OutcomeConfig, drawKey: readonly string[]): DeliveryPlan {
  const random = SeededRandom.derive(config.seed, 'delivery', ...drawKey);
  const latencyMs = random.intBetween(config.latencyMinMs, config.latencyMaxMs);
  const draw = random.next();
  const serverErrorStatus = random.pick([500, 502, 503] as const);
  const rates: readonly [FaultKind, number][] = [
    ['serverError', config.fault5xxRate],
    ['timeout', config.faultTimeoutRate],
    ['reset', config.faultResetRate],
    ['malformedJson', config.faultMalformedRate],
    ['oversized', config.faultOversizedRate],
  ];
  let edge = 0;
  for (const [kind, rate] of rates) {
    edge += rate;
    if (draw < edge) return { latencyMs, fault: kind, serverErrorStatus };
  }
  return { latencyMs, fault: undefined, serverErrorStatus };
}

/**
 * Delivers protocol answers through the configured latency and faults. Faults act on delivery only: the lead
 * was already recorded (or found) when the answer was made, so a faulted post still makes at most one upstream
 * lead, and its retry gets the same lead — the case a client's idempotency has to survive.
 */
export class FaultInjector {
  #counts = zeroCounts();
  #oversizedInFlight = 0;
  #oversizedPeak = 0;
  readonly #closing = new AbortController();

  constructor(private readonly config: () => OutcomeConfig) {}

  async deliver(request: FastifyRequest, reply: FastifyReply, answer: ProtocolAnswer): Promise<FastifyReply> {
    const config = this.config();
    const plan = planDelivery(config, answer.drawKey);
    if (plan.fault) this.#counts[plan.fault] += 1;

    const holdMs = plan.latencyMs + (plan.fault === 'timeout' ? config.timeoutHoldMs : 0);
    if (holdMs > 0 && !(await this.#hold(holdMs, reply))) return dropConnection(request, reply);

    switch (plan.fault) {
      case 'serverError':
        return reply
          .code(plan.serverErrorStatus)
          .send(errorBody('INTERNAL', 'Injected fault: server error.'));
      case 'reset':
        return dropConnection(request, reply);
      case 'malformedJson':
        return reply
          .code(answer.statusCode)
          .type('application/json; charset=utf-8')
          .send(truncatedJson(answer.body));
      case 'oversized':
        return reply
          .code(answer.statusCode)
          .type('application/json; charset=utf-8')
          .send(
            this.#tracked(oversizedJson(answer.body, config.oversizedBytes, config.oversizedChunkIntervalMs)),
          );
      default:
        // A timed-out request is answered normally once the hold is over: a slow network, not a dead one.
        return reply.code(answer.statusCode).send(answer.body);
    }
  }

  counts(): Record<FaultKind, number> {
    return { ...this.#counts };
  }

  /** The most oversized answers streaming at once since the last reset. */
  oversizedPeakInFlight(): number {
    return this.#oversizedPeak;
  }

  reset(): void {
    this.#counts = zeroCounts();
    this.#oversizedPeak = this.#oversizedInFlight;
  }

  /** Counts an oversized answer in flight until its stream closes (read to the end or given up). */
  #tracked(stream: Readable): Readable {
    this.#oversizedInFlight += 1;
    this.#oversizedPeak = Math.max(this.#oversizedPeak, this.#oversizedInFlight);
    stream.once('close', () => (this.#oversizedInFlight -= 1));
    return stream;
  }

  /** Ends every hold at once, so a held request never delays shutdown. */
  close(): void {
    this.#closing.abort();
  }

  /** Waits `ms`; false when the sandbox closes or the client goes away first. */
  async #hold(ms: number, reply: FastifyReply): Promise<boolean> {
    const clientGone = new AbortController();
    const onClose = () => clientGone.abort();
    reply.raw.once('close', onClose);
    try {
      await sleep(ms, undefined, { signal: AbortSignal.any([this.#closing.signal, clientGone.signal]) });
      return true;
    } catch {
      return false;
    } finally {
      reply.raw.off('close', onClose);
    }
  }
}

function zeroCounts(): Record<FaultKind, number> {
  return { serverError: 0, timeout: 0, reset: 0, malformedJson: 0, oversized: 0 };
}

const PAD_CHUNK = Buffer.alloc(64 * 1024, 0x20);

/**
 * The real answer padded with spaces after its fields to `bytes` in all (valid JSON, if read whole), as a stream
 * of 64 KiB chunks made as the client reads them, `intervalMs` apart (a slow network: several such answers are
 * in flight at once): no Content-Length, so a client learns the size only by reading, and the sandbox never holds
 * the body in memory. A client that gives up ends the stream.
 */
function oversizedJson(body: object, bytes: number, intervalMs: number): Readable {
  const text = JSON.stringify(body);
  const head = Buffer.from(`${text.slice(0, -1)},"padding":"`);
  const tail = Buffer.from('"}');
  let left = Math.max(0, bytes - head.length - tail.length);
  let sentHead = false;
  let timer: NodeJS.Timeout | undefined;
  const stream = new Readable({
    read() {
      if (!sentHead) {
        sentHead = true;
        this.push(head);
        return;
      }
      if (left === 0) {
        this.push(tail);
        this.push(null);
        return;
      }
      const n = Math.min(left, PAD_CHUNK.length);
      left -= n;
      const chunk = n === PAD_CHUNK.length ? PAD_CHUNK : PAD_CHUNK.subarray(0, n);
      if (intervalMs === 0) this.push(chunk);
      else timer = setTimeout(() => this.push(chunk), intervalMs);
    },
  });
  stream.once('close', () => clearTimeout(timer));
  return stream;
}

/** A strict prefix of a JSON object's text is never valid JSON: its outer brace is never closed. */
function truncatedJson(body: object): string {
  const text = JSON.stringify(body);
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}

/**
 * Resets the TCP connection (RST), so the client sees ECONNRESET rather than a clean close. Under `app.inject`
 * there is no socket: destroying the response makes the injected request fail the same way.
 */
function dropConnection(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.hijack();
  const socket: Partial<Socket> = request.raw.socket;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else reply.raw.destroy();
  return reply;
}
