import { ZIP_CODE_NOT_FOUND } from '@funnel/contracts/messages';
import { secondPayDate } from '@funnel/contracts/rules/pay-dates';
import type { StepName } from '@funnel/contracts/steps';
import { HttpError } from '../http-error.js';
import type { ZipDirectory, ZipPlace } from '../reference-data/zip-directory.js';
import type { ClientLead } from './lead-context.js';
import type { RoutingLookup } from './routing-lookup.js';

/** What the reference data knows for the step's answers, looked up by the caller. */
export interface DerivationFacts {
  /** The place of the ZIP code the address step sent (ZIP directory); undefined when unknown. */
  place?: ZipPlace | undefined;
  /** The bank of the routing number the aba step sent (routing directory or lookup); undefined when unknown. */
  bank?: { bankName: string } | undefined;
}

/** The answer was a ZIP code no directory knows: the step is refused. */
export const UNKNOWN_ZIP = 'unknown-zip';

/**
 * The answers the server owns for one step, from the step's own answers (`values`), the lead's earlier ones
 * (`current`) and what the reference data knows (`facts`):
 * - address: city, state and coordinates from the ZIP code; a ZIP no directory knows refuses the step;
 * - aba: the directory's bank name wins over what the browser sent; the visitor's own is kept for an unknown
 *   routing number;
 * - payfreequency and nextpaydate: the second pay date from the first and the pay frequency (spec §4).
 * Pure: nothing is looked up or written here.
 */
export function derivedAnswers(
  step: StepName,
  values: ClientLead,
  current: ClientLead,
  facts: DerivationFacts,
): ClientLead | typeof UNKNOWN_ZIP {
  switch (step) {
    case 'address':
      return facts.place ? placeAnswers(facts.place) : UNKNOWN_ZIP;
    case 'aba':
      return facts.bank ? { bankName: facts.bank.bankName } : {};
    case 'payfreequency':
      return typeof current.incomeNextDate1 === 'string'
        ? {
            incomeNextDate2: secondPayDate(current.incomeNextDate1, values.incomePaymentFrequency as never),
          }
        : {};
    case 'nextpaydate':
      return {
        incomeNextDate2: secondPayDate(
          String(values.incomeNextDate1),
          (current.incomePaymentFrequency ?? 'BIWEEKLY') as never,
        ),
      };
    default:
      return {};
  }
}

/** The answers a ZIP code's place fills: city, state and coordinates. */
export function placeAnswers(place: ZipPlace): ClientLead {
  return { city: place.city, state: place.state, latitude: place.lat, longitude: place.lon };
}

/**
 * Fills `values` with the answers the server owns for `step` ({@link derivedAnswers}), looking up what the step
 * needs: the ZIP's place, the routing number's bank. 400 for a ZIP no directory knows.
 */
export async function deriveAnswers(
  sources: { zips: Pick<ZipDirectory, 'lookup'>; routing: Pick<RoutingLookup, 'lookup'> },
  step: StepName,
  values: ClientLead,
  current: ClientLead,
): Promise<void> {
  const facts: DerivationFacts = {
    place: step === 'address' ? sources.zips.lookup(String(values.zipCode)) : undefined,
    bank: step === 'aba' ? await sources.routing.lookup(String(values.routingNumber)) : undefined,
  };
  const derived = derivedAnswers(step, values, current, facts);
  if (derived === UNKNOWN_ZIP) throw HttpError.validation({ zipCode: ZIP_CODE_NOT_FOUND });
  Object.assign(values, derived);
}
