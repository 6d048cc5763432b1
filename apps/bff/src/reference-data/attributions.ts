/**
 * Attribution lines that CC BY 4.0 requires wherever the data is shown, worded as in the data directory's
 * SOURCES.md. The loaders report the lines of the datasets they actually loaded.
 */
export const ONET_ATTRIBUTION =
  'This product includes information from the O*NET 29.3 Database by the U.S. Department of Labor, ' +
  'Employment and Training Administration (USDOL/ETA). Used under the CC BY 4.0 license. ' +
  'O*NET® is a trademark of USDOL/ETA. The data was reformatted and merged with BLS SOC titles; ' +
  'USDOL/ETA has not approved, endorsed, or tested these modifications.';

export const GEONAMES_ATTRIBUTION = 'Postal code data © GeoNames (https://www.geonames.org), CC BY 4.0.';
