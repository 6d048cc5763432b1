import type { PrettyStream } from 'pino-pretty';

export interface LogOutput {
  nodeEnv: string;
  /** Whether stdout is a terminal (`process.stdout.isTTY`). */
  isTTY: boolean;
  /** Where the pretty lines go; stdout by default. */
  destination?: NodeJS.WritableStream;
}

/**
 * Where a server process writes its log lines: pretty, coloured lines for a person reading a terminal in
 * development (issue 25: raw JSON in `npm start`), and undefined, meaning pino's own JSON on stdout, everywhere
 * else (production, tests, a pipe or a file), so log collectors keep reading JSON. Redaction happens before the
 * destination, so a pretty line hides exactly what a JSON line hides. The pretty-printer is a development
 * dependency, loaded only here: production images do not carry it.
 */
export async function prettyLogDestination({
  nodeEnv,
  isTTY,
  destination,
}: LogOutput): Promise<PrettyStream | undefined> {
  if (nodeEnv !== 'development' || !isTTY) return undefined;
  const { PinoPretty } = await import('pino-pretty');
  return PinoPretty({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    sync: true,
    ...(destination ? { destination } : {}),
  });
}
