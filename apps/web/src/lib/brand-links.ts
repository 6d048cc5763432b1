import type { BrandLinks } from '@funnel/contracts/public-config';
import { usePublicConfig } from './public-config';

/**
 * How to reach the business, from the deployment's configuration (the BFF's `BRAND_*` settings): undefined
 * while it loads. `contact.sample` says the details are the built-in samples of a development copy.
 */
export function useBrandLinks(): BrandLinks | undefined {
  return usePublicConfig().data?.brand;
}
