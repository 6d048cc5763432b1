import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { GEONAMES_ATTRIBUTION } from './attributions.js';
import { loadZipDirectory, parseGeoNamesPostalCodes } from './zip-directory.js';

const dataDir =
  process.env.REFERENCE_DATA_DIR ?? fileURLToPath(new URL('../../../../../shared/data', import.meta.url));

describe('loadZipDirectory from the GeoNames file', async () => {
  const zips = await loadZipDirectory(dataDir);

  it('reads the file and asks for the GeoNames attribution', () => {
    expect(zips.source).toBe('geonames');
    expect(zips.size).toBe(41_487);
    expect(zips.attributions).toEqual([GEONAMES_ATTRIBUTION]);
  });

  it('finds known ZIPs', () => {
    expect(zips.lookup('10001')).toEqual({ city: 'New York', state: 'NY', lat: 40.7484, lon: -73.9967 });
    expect(zips.lookup('90210')).toMatchObject({ city: 'Beverly Hills', state: 'CA' });
    expect(zips.lookup(' 90210 ')).toMatchObject({ city: 'Beverly Hills' });
  });

  it('answers undefined for unknown or malformed ZIPs', () => {
    for (const zip of ['00000', '99999', '1000', '100011', 'abcde', '', '10001-1234']) {
      expect(zips.lookup(zip)).toBeUndefined();
    }
  });

  it('prefers the Hawaii row over the FPO row for a duplicated ZIP', () => {
    expect(zips.lookup('96860')).toMatchObject({ state: 'HI' });
    expect(zips.lookup('96863')).toMatchObject({ state: 'HI' });
  });

  it('keeps military ZIPs with their USPS military state code', () => {
    expect(zips.lookup('09001')).toMatchObject({ city: 'APO', state: 'AA' });
    expect(zips.lookup('96365')).toBeUndefined();
  });
});

describe('parseGeoNamesPostalCodes', () => {
  const row = (zip: string, place: string, state: string, lat = '1.5', lon = '-2.5'): string =>
    ['US', zip, place, '', state, '', '', '', '', lat, lon, '1'].join('\t');

  it('lets a row with a state replace a military row, whatever the order', () => {
    const places = parseGeoNamesPostalCodes(
      [
        row('96860', 'FPO AA', ''),
        row('96860', 'Jbphh', 'HI'),
        row('96863', 'Mcbh', 'HI'),
        row('96863', 'FPO AA', ''),
      ].join('\n'),
    );
    expect(places.get('96860')).toEqual({ city: 'Jbphh', state: 'HI', lat: 1.5, lon: -2.5 });
    expect(places.get('96863')).toMatchObject({ city: 'Mcbh', state: 'HI' });
  });

  it('skips rows without a usable ZIP, place, state or coordinates', () => {
    const places = parseGeoNamesPostalCodes(
      [
        row('123', 'Short', 'NY'),
        row('12345', '', 'NY'),
        row('12346', 'APO STA', ''),
        row('12347', 'Nowhere', 'NY', ''),
        'garbage',
        '',
      ].join('\n'),
    );
    expect(places.size).toBe(0);
  });
});

describe('loadZipDirectory without the reference directory', () => {
  it.each([undefined, '/nonexistent/reference-data'])(
    'falls back to the zipcodes package (dir %s)',
    async (dir) => {
      const zips = await loadZipDirectory(dir);
      expect(zips.source).toBe('zipcodes-package');
      expect(zips.size).toBeGreaterThan(40_000);
      expect(zips.attributions).toEqual([]);
      expect(zips.lookup('10001')).toMatchObject({ city: 'New York', state: 'NY' });
      expect(zips.lookup('90210')).toMatchObject({ city: 'Beverly Hills', state: 'CA' });
      expect(zips.lookup('00000')).toBeUndefined();
      // The package also answers Canadian postal-code prefixes; a US ZIP lookup must not.
      expect(zips.lookup('A0A')).toBeUndefined();
    },
  );
});
