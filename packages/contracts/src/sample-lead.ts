/**
 * A complete, realistic lead (fictitious person, documentation-range IP) in server field names, decrypted, and
 * the context it is submitted from. Used by the payload golden file, the sandbox and worker tests, and as the
 * example in the API documentation.
 */
import type { SubmissionContext, SubmittableLead } from './lender-network.js';
import { addDays } from './rules/calendar-date.js';
import { isSelectablePayDate, secondPayDate } from './rules/pay-dates.js';

/** A complete stored lead, decrypted, in server field names. */
export const SAMPLE_LEAD: SubmittableLead = {
  loan_amount: 1000,
  loan_reason: 'DEBT_CONSOLIDATION',
  zip: '78701',
  city: 'Austin',
  state: 'TX',
  first_name: 'Maria',
  last_name: 'Garcia',
  email: 'maria.garcia@example.com',
  home_phone: '5125550143',
  contact_time: 'MORNING',
  dob: '1988-04-12',
  address: '1200 Barton Springs Rd Apt 4',
  time_at_residence: 36,
  own_home: 'NO',
  income_type: 'EMPLOYMENT',
  work_time_at_employer: 24,
  debt_amount: '5000_9999',
  income_payment_frequency: 'BIWEEKLY',
  income_net_monthly: 3500,
  income_next_date_1: '2025-06-27',
  income_next_date_2: '2025-07-11',
  work_company_name: 'Lone Star Logistics LLC',
  job_title: 'Warehouse Supervisor',
  work_phone: '5125550198',
  bank_direct_deposit: 'YES',
  bank_aba: '114994031',
  bank_name: 'Austin Capital Bank SSB',
  bank_account_type: 'CHECKING',
  bank_account_length_month: 30,
  bank_account_number: '004512398765',
  drivers_license_number: '41872305',
  drivers_license_state: 'TX',
  own_car: 'YES',
  credit_score: 'FAIR',
  ssn: '123456789',
};

/**
 * {@link SAMPLE_LEAD} as it would be answered on `todayIso` ('YYYY-MM-DD', business time zone): its pay dates
 * moved to the first selectable day a week or more ahead and the biweekly one after it. The fixed sample's pay
 * dates went stale with the calendar; an example a reader can send must be valid on the day they read it.
 */
export function sampleLeadOn(todayIso: string): SubmittableLead {
  let first = addDays(todayIso, 7);
  while (!isSelectablePayDate(first, todayIso)) first = addDays(first, 1);
  return {
    ...SAMPLE_LEAD,
    income_next_date_1: first,
    income_next_date_2: secondPayDate(first, SAMPLE_LEAD.income_payment_frequency),
  };
}

/** Where {@link SAMPLE_LEAD} is submitted from, with every attribution token filled in. */
export const SAMPLE_SUBMISSION_CONTEXT: SubmissionContext = {
  leadId: 'k3J9xQ2mVb7TzR1pL8wN4A',
  tracking: {
    utmSource: 'google',
    utmMedium: 'cpc',
    utmCampaign: 'personal-loans-tx',
    utmId: 'cmp-20250601',
    pubs: 'pub-1042',
    offerId: 'offer-77',
    subSource: 'search',
    affiliateId: 'aff-310',
    affiliateSubId: 'sub-12',
    campaignType: 'pm',
    clickId: 'clk-8f2a9c',
    visitorId: 'v-5d1e7b2c',
    fbp: 'fb.1.1718000000000.1234567890',
    gclAw: 'GCL.1718000000.Cj0KCQjw',
    adId: 'ad-5531',
    webSiteUrl: 'https://www.example.com/',
    trustedFormUrl: 'https://cert.trustedform.com/2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e',
    jornayaLeadId: 'A1B2C3D4-E5F6-7A8B-9C0D-E1F2A3B4C5D6',
  },
  userIp: '203.0.113.45',
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  webSiteUrl: 'https://www.example.com/ssn',
};
