import { LandingParamsSchema, type LandingParams } from '@funnel/contracts/attribution';

const NAMES = Object.keys(LandingParamsSchema.shape) as (keyof LandingParams)[];

/**
 * The landing URL's attribution parameters (exactly the names `LandingParamsSchema` lists), sent with the landing
 * request; the BFF adds the cookies and the Referer. No other parameter is read, so personal ones (the deep link's
 * `email`) never ride along. A value the contracts refuse (too long) is left out rather than failing the landing.
 * `undefined` when the URL carries none.
 */
export function readLandingParams(search: string): LandingParams | undefined {
  const query = new URLSearchParams(search);
  const params: LandingParams = {};
  for (const name of NAMES) {
    const value = query.get(name)?.trim();
    if (!value) continue;
    const parsed = LandingParamsSchema.shape[name].safeParse(value);
    if (parsed.success) params[name] = parsed.data;
  }
  return Object.keys(params).length > 0 ? params : undefined;
}
