import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { prettyLogDestination } from './log-destination.js';

describe('prettyLogDestination', () => {
  it('pretty-prints only for a terminal in development', async () => {
    expect(await prettyLogDestination({ nodeEnv: 'development', isTTY: true })).toBeDefined();
    expect(await prettyLogDestination({ nodeEnv: 'development', isTTY: false })).toBeUndefined();
    expect(await prettyLogDestination({ nodeEnv: 'production', isTTY: true })).toBeUndefined();
    expect(await prettyLogDestination({ nodeEnv: 'test', isTTY: true })).toBeUndefined();
  });

  it('writes a readable line, not JSON, and keeps redacted values hidden', async () => {
    let written = '';
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const stream = (await prettyLogDestination({ nodeEnv: 'development', isTTY: true, destination }))!;
    const logger = pino({ redact: { paths: ['ssn'], censor: '[redacted]' } }, stream);
    logger.info({ ssn: '123-45-6789', leadId: 'k3J9' }, 'lead decided');
    // eslint-disable-next-line no-control-regex
    const plain = written.replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/INFO.*lead decided/);
    expect(plain).toContain('leadId: "k3J9"');
    expect(plain).not.toContain('123-45-6789');
    expect(() => JSON.parse(plain.trim())).toThrow();
  });
});
