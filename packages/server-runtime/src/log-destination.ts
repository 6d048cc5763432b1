import { PinoPretty, type PrettyStream } from 'pino-pretty';

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
 * destination, so a pretty line hides exactly what a JSON line hides.
 */
export function prettyLogDestination({ nodeEnv, isTTY, destination }: LogOutput): PrettyStream | undefined {
  if (nodeEnv !== 'development' || !isTTY) return undefined;
  return PinoPretty({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    sync: true,
    ...(destination ? { destination } : {}),
  });
}
