import { performance } from 'node:perf_hooks';

import { loadRoutingDirectory, type RoutingDirectory } from './routing-directory.js';
import { loadSuggestions, type Suggestions } from './suggestions.js';
import { loadZipDirectory, type ZipDirectory } from './zip-directory.js';

/** Everything the BFF looks up or suggests from the reference data directory. */
export interface ReferenceData {
  readonly zips: ZipDirectory;
  readonly routing: RoutingDirectory;
  readonly suggestions: Suggestions;
  /** Every attribution line the loaded data requires, for the README-style notice on the partners/legal page. */
  readonly attributions: readonly string[];
}

/** The part of a pino/Fastify logger the loader uses. */
export interface ReferenceDataLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/**
 * Loads the ZIP directory, the routing directory and the suggestion indexes from `dir` in parallel and logs what
 * was found, how long it took and how much heap it added. `dir` undefined means no reference data: ZIP lookup
 * uses the `zipcodes` package, the routing directory is empty and suggestions answer [].
 *
 * `required` (production): a missing dataset is an error naming each one, so a server never starts without the
 * reference data an operator forgot to mount.
 */
export async function loadReferenceData(
  dir: string | undefined,
  logger?: ReferenceDataLogger,
  options: { required?: boolean } = {},
): Promise<ReferenceData> {
  const started = performance.now();
  const heapBefore = process.memoryUsage().heapUsed;
  const [zips, routing, suggestions] = await Promise.all([
    loadZipDirectory(dir),
    loadRoutingDirectory(dir),
    loadSuggestions(dir),
  ]);
  const data: ReferenceData = {
    zips,
    routing,
    suggestions,
    attributions: [...new Set([...suggestions.attributions, ...zips.attributions])],
  };

  const details = {
    dir: dir ?? null,
    zips: { source: zips.source, size: zips.size },
    routing: { source: routing.source, size: routing.size },
    suggestions: suggestions.loaded,
    ms: Math.round(performance.now() - started),
    heapAddedMb: Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e5) / 10,
  };
  const missing = [
    ...(zips.source === 'geonames' ? [] : ['zips']),
    ...(routing.source === 'fedach' ? [] : ['routing']),
    ...Object.entries(suggestions.loaded)
      .filter(([, size]) => size === 0)
      .map(([field]) => `suggestions.${field}`),
  ];
  if (missing.length > 0 && options.required) {
    throw new Error(
      `reference data missing in REFERENCE_DATA_DIR (${dir ?? 'unset'}): ${missing.join(', ')} (docs/configuration.md, "Reference data")`,
    );
  }
  if (missing.length > 0) {
    logger?.warn(
      { ...details, missing },
      'reference data incomplete: missing datasets fall back or stay empty',
    );
  } else {
    logger?.info(details, 'reference data loaded');
  }
  return data;
}
