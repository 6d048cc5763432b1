import type { FastifyBaseLogger } from 'fastify';
import { pino, type Bindings, type ChildLoggerOptions, type DestinationStream, type Logger } from 'pino';
import { CLIENT_TO_SERVER, SENSITIVE_CLIENT_FIELDS } from '@funnel/contracts/fields';

const sensitiveNames: string[] = [
  ...SENSITIVE_CLIENT_FIELDS.flatMap((f) => [f, CLIENT_TO_SERVER[f]]),
  // Their names in the lender-network payload.
  'confirm_pii',
  'bankAba',
  'bankAccountNumber',
  'driversLicenseNumber',
];

/** Every place a sensitive value could sit in a log line: top level and one or two objects deep. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  ...sensitiveNames.flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
];

interface LoggedRequest {
  method: string;
  url: string;
  routeOptions?: { url?: string };
  id?: string;
}

/**
 * Logs the route pattern instead of the raw URL: query strings (suggestion text, email) and path parameters
 * (routing numbers) never reach a log line.
 */
export function loggedUrl(request: LoggedRequest): string {
  const pattern = request.routeOptions?.url;
  if (pattern) return pattern;
  return request.url.split('?')[0] ?? request.url;
}

/**
 * The BFF's logger. Without a destination it writes to stdout asynchronously: a line is handed to the kernel
 * after the request that logged it, and lines logged while a write is in flight go out together in the next
 * one (a synchronous write per line was 6 % of a step save's CPU under load). Pino flushes what is left when
 * the process exits.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (request: LoggedRequest) => ({ id: request.id, method: request.method, url: loggedUrl(request) }),
    },
  };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}

/**
 * The request's logger, created from Fastify's bindings only when something logs through it. Pino builds a
 * child's bindings through the redaction paths, which cost 2.5 % of a step save's CPU, for a logger most
 * requests never use (plugins/access-log.ts writes the access line). A class, so a held request (an event
 * stream) costs one small object, not a closure per level.
 */
class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(value: string) {
    this.real.level = value;
  }

  fatal(obj: unknown, ...rest: unknown[]): void {
    this.real.fatal(obj, ...(rest as []));
  }
  error(obj: unknown, ...rest: unknown[]): void {
    this.real.error(obj, ...(rest as []));
  }
  warn(obj: unknown, ...rest: unknown[]): void {
    this.real.warn(obj, ...(rest as []));
  }
  info(obj: unknown, ...rest: unknown[]): void {
    this.real.info(obj, ...(rest as []));
  }
  debug(obj: unknown, ...rest: unknown[]): void {
    this.real.debug(obj, ...(rest as []));
  }
  trace(obj: unknown, ...rest: unknown[]): void {
    this.real.trace(obj, ...(rest as []));
  }
  silent(obj: unknown, ...rest: unknown[]): void {
    this.real.silent(obj, ...(rest as []));
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: see {@link LazyChildLogger}. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
