import { Writable } from 'node:stream';

/** A pino destination that keeps every line written: `text` as written, `entries` parsed. */
export function logSink(): { sink: Writable; text: string[]; entries: () => Array<Record<string, unknown>> } {
  const text: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text.push(chunk.toString());
      done();
    },
  });
  const entries = () =>
    text
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { sink, text, entries };
}
