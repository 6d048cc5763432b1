import { pino, type DestinationStream, type Logger } from 'pino';

interface LoggedRequest {
  id?: string;
  method: string;
  url: string;
  routeOptions?: { url?: string };
}

/**
 * The sandbox's pino logger. Requests are logged by route pattern, never by raw URL: the ping's query carries
 * `checkKey`, and bodies (full applications with SSNs) are never logged at all.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      serializers: {
        req: (request: LoggedRequest) => ({
          id: request.id,
          method: request.method,
          url: request.routeOptions?.url ?? request.url.split('?')[0],
        }),
      },
    },
    destination,
  );
}
