import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { GEONAMES_ATTRIBUTION, ONET_ATTRIBUTION } from './attributions.js';
import { loadReferenceData, type ReferenceDataLogger } from './reference-data.js';

const dataDir =
  process.env.REFERENCE_DATA_DIR ?? fileURLToPath(new URL('../../../../../shared/data', import.meta.url));

function recordingLogger(): ReferenceDataLogger & {
  lines: { level: string; details: object; message: string }[];
} {
  const lines: { level: string; details: object; message: string }[] = [];
  return {
    lines,
    info: (details, message) => lines.push({ level: 'info', details, message }),
    warn: (details, message) => lines.push({ level: 'warn', details, message }),
  };
}

describe('loadReferenceData', () => {
  it('loads every dataset, lists the attributions and logs counts and timing', async () => {
    const logger = recordingLogger();
    const data = await loadReferenceData(dataDir, logger);

    expect(data.zips.lookup('10001')).toMatchObject({ city: 'New York', state: 'NY' });
    expect(data.routing.lookup('021000021')?.bankName).toBe('JPMORGAN CHASE');
    expect(data.suggestions.suggest('employer', 'app')[0]).toBe('Apple Inc.');
    expect(data.attributions).toEqual([ONET_ATTRIBUTION, GEONAMES_ATTRIBUTION]);

    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatchObject({
      level: 'info',
      message: 'reference data loaded',
      details: {
        zips: { source: 'geonames', size: 41_487 },
        routing: { source: 'fedach', size: 18_198 },
        suggestions: { first_name: 10_003, last_name: 20_007 },
      },
    });
    // The load time is logged for operators; how long it takes is a benchmark's question (docs/adr/0028).
    expect(logger.lines[0]?.details).toHaveProperty('ms', expect.any(Number));
  });

  it('refuses to load without its datasets when they are required (production)', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'no-reference-data-'));
    try {
      await expect(loadReferenceData(empty, recordingLogger(), { required: true })).rejects.toThrow(
        /reference data missing in REFERENCE_DATA_DIR .*: zips, routing, suggestions\./,
      );
      await expect(loadReferenceData(undefined, recordingLogger(), { required: true })).rejects.toThrow(
        /\(unset\): zips, routing/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('runs without a directory and warns about what is missing', async () => {
    const logger = recordingLogger();
    const data = await loadReferenceData(undefined, logger);

    expect(data.zips.source).toBe('zipcodes-package');
    expect(data.routing.source).toBe('none');
    expect(data.suggestions.suggest('first_name', 'mar')).toEqual([]);
    expect(data.attributions).toEqual([]);
    expect(logger.lines).toMatchObject([
      {
        level: 'warn',
        details: {
          missing: [
            'zips',
            'routing',
            'suggestions.first_name',
            'suggestions.last_name',
            'suggestions.job_title',
            'suggestions.employer',
          ],
        },
      },
    ]);
  });
});
