import { usePublicConfig } from '@/lib/public-config';

/**
 * Credits the licences of the loaded reference data require wherever the data is used (CC BY 4.0: O*NET behind
 * the job-title suggestions, GeoNames behind the ZIP code lookup). The BFF lists the lines of the datasets it
 * actually loaded (GET /api/v1/config); without any, the section is left out.
 */
export function DataAttributions() {
  const lines = usePublicConfig().data?.dataAttributions ?? [];
  if (lines.length === 0) return null;
  return (
    <>
      <h2 id="data-sources">Data sources</h2>
      <p>Some of the suggestions and lookups on this site are built on openly licensed data:</p>
      <ul aria-labelledby="data-sources">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </>
  );
}
