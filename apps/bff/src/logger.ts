import { pino, type DestinationStream, type Logger } from 'pino';
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

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (request: LoggedRequest) => ({ id: request.id, method: request.method, url: loggedUrl(request) }),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
