import { join } from 'node:path';

import { GEONAMES_ATTRIBUTION } from './attributions.js';
import { readOptionalFile } from './read-optional-file.js';

/** Where a ZIP code is: the USPS default city, the 2-letter state code and the coordinates. */
export interface ZipPlace {
  readonly city: string;
  readonly state: string;
  readonly lat: number;
  readonly lon: number;
}

/** ZIP code lookup, built once at start. */
export interface ZipDirectory {
  /** Answers undefined for anything but a known 5-digit ZIP (surrounding spaces are ignored). */
  lookup(zip: string): ZipPlace | undefined;
  /** `geonames` when the reference directory's file was read, else the 2018 data of the `zipcodes` package. */
  readonly source: 'geonames' | 'zipcodes-package';
  readonly size: number;
  /** Attribution lines the product must show while this data is in use. */
  readonly attributions: readonly string[];
}

/** The GeoNames file's path inside the reference data directory. */
export const GEONAMES_ZIP_FILE = join('zipcodes', 'geonames_US_postal_codes.txt');

const ZIP_PATTERN = /^\d{5}$/;
// GeoNames leaves the state empty on military ZIPs and puts the USPS form in the place name ("APO AE").
const MILITARY_PLACE = /^(APO|FPO|DPO) (AA|AE|AP)$/;

/**
 * Loads the GeoNames US postal codes from `dir`; when `dir` is undefined or lacks the file, falls back to the
 * `zipcodes` npm package (loaded only then, as it holds its whole dataset in memory).
 */
export async function loadZipDirectory(dir?: string): Promise<ZipDirectory> {
  const text = dir === undefined ? undefined : await readOptionalFile(join(dir, GEONAMES_ZIP_FILE));
  if (text !== undefined) {
    const places = parseGeoNamesPostalCodes(text);
    return {
      lookup: (zip) => {
        const key = zip.trim();
        return ZIP_PATTERN.test(key) ? places.get(key) : undefined;
      },
      source: 'geonames',
      size: places.size,
      attributions: [GEONAMES_ATTRIBUTION],
    };
  }
  return loadPackageZipDirectory();
}

/**
 * Parses the GeoNames postal-code export (tab-separated, 12 columns, no header) into ZIP → place.
 *
 * Military APO/FPO/DPO rows have no state column; they are kept with the USPS military state code taken from the
 * place name (city "APO", state "AE"), because active-duty applicants have such addresses. A military row that
 * names no such code ("APO STA") is skipped. When a ZIP appears twice (96860, 96863: Hawaii and "FPO AA"), a row
 * with a real state wins over a military one; otherwise the first row wins.
 */
export function parseGeoNamesPostalCodes(text: string): Map<string, ZipPlace> {
  const places = new Map<string, ZipPlace>();
  const fromMilitaryRow = new Set<string>();
  for (const line of text.split('\n')) {
    const columns = line.split('\t');
    const zip = columns[1];
    const placeName = columns[2]?.trim();
    const lat = Number.parseFloat(columns[9] ?? '');
    const lon = Number.parseFloat(columns[10] ?? '');
    if (
      zip === undefined ||
      !ZIP_PATTERN.test(zip) ||
      !placeName ||
      !Number.isFinite(lat) ||
      !Number.isFinite(lon)
    ) {
      continue;
    }
    const stateCode = columns[4]?.trim() ?? '';
    if (stateCode !== '') {
      if (places.has(zip) && !fromMilitaryRow.has(zip)) continue;
      places.set(zip, { city: placeName, state: stateCode, lat, lon });
      fromMilitaryRow.delete(zip);
      continue;
    }
    const military = MILITARY_PLACE.exec(placeName);
    if (!military?.[1] || !military[2] || places.has(zip)) continue;
    places.set(zip, { city: military[1], state: military[2], lat, lon });
    fromMilitaryRow.add(zip);
  }
  return places;
}

async function loadPackageZipDirectory(): Promise<ZipDirectory> {
  const { default: zipcodes } = await import('zipcodes');
  let size = 0;
  for (const [zip, info] of Object.entries(zipcodes.codes)) {
    if (info.country === 'US' && ZIP_PATTERN.test(zip)) size += 1;
  }
  return {
    lookup: (zip) => {
      const key = zip.trim();
      if (!ZIP_PATTERN.test(key)) return undefined;
      const info = zipcodes.lookup(key);
      if (info?.country !== 'US') return undefined;
      return { city: info.city, state: info.state, lat: info.latitude, lon: info.longitude };
    },
    source: 'zipcodes-package',
    size,
    attributions: [],
  };
}
