import { replace, type LoaderFunctionArgs } from 'react-router';
import type { StepName } from '@funnel/contracts/steps';

/**
 * The older `/apply/{step}` addresses (spec §2), still found in emails and partner links. Each opens the canonical
 * screen (docs/product-rules.md §wizard-order-and-progress); `bank` was the first bank-details screen, the routing number.
 */
const APPLY_ALIASES = new Map<string, StepName>([
  ['home_time', 'hometime'],
  ['score', 'creditscore'],
  ['bank', 'aba'],
  ['deposit', 'deposit'],
  ['bank_time', 'banktime'],
  ['driver', 'driverid'],
  ['ssn', 'ssn'],
  ['debt', 'unsecureddebtamount'],
  ['own_home', 'ownhome'],
  ['own_car', 'owncar'],
  ['address', 'address'],
]);

/** Replaces `/apply/{alias}` with its screen; `/apply` alone, or an unknown alias, goes to the start. */
export function applyAliasLoader({ params }: LoaderFunctionArgs) {
  const step = params.alias === undefined ? undefined : APPLY_ALIASES.get(params.alias);
  return replace(step ? `/${step}` : '/start');
}
