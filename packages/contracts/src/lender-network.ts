/**
 * The lender-network protocol (docs/product-rules.md §lender-network-answers): the submission payload the worker posts and the sandbox accepts,
 * the two responses, and the one function that turns a stored lead into a payload. This is the third
 * vocabulary of field names; the renaming from server names happens here and nowhere else.
 */
import * as z from 'zod';
import { mapFieldErrors, type MappedFieldError } from './buyer-field-errors.js';
import { copyMappedFields } from './buyer-payload-fields.js';
import { CLIENT_TO_SERVER as server } from './fields.js';
import {
  BankAccountTypeSchema,
  BankTenureSchema,
  ContactTimeSchema,
  CreditScoreSchema,
  DirectDepositSchema,
  EmployerTenureSchema,
  HomeOwnershipSchema,
  IncomeSourceSchema,
  LoanAmountSchema,
  LoanReasonSchema,
  MonthlyIncomeSchema,
  OwnCarSchema,
  PayFrequencySchema,
  ResidenceDurationSchema,
  UnsecuredDebtSchema,
  UsStateCodeSchema,
  type BankAccountType,
  type BankTenure,
  type ContactTime,
  type CreditScore,
  type DirectDeposit,
  type EmployerTenure,
  type HomeOwnership,
  type IncomeSource,
  type LoanAmount,
  type LoanReason,
  type MonthlyIncome,
  type OwnCar,
  type PayFrequency,
  type ResidenceDuration,
  type UnsecuredDebt,
  type UsStateCode,
} from './options.js';
import { isValidRoutingNumber } from './rules/aba.js';
import { isIsoDate } from './rules/calendar-date.js';
import { isValidUsPhone } from './rules/phone.js';
import { formatSsn, isValidSsn, ssnDigits } from './rules/ssn.js';
import type { Tracking } from './tracking.js';

/** Paths of the two calls, relative to the configured base URL. */
export const LENDER_NETWORK_PATHS = {
  submit: '/personal_loan/lead/send/v2',
  ping: '/personal_loan/lead/ping/v2',
} as const;

/** `data.status` values. Anything else is not final: follow a returned address if any, else treat as rejected. */
export const LEAD_STATUS = {
  SOLD: 1,
  REJECTED: 2,
  PENDING: 3,
} as const;
export type LeadStatus = (typeof LEAD_STATUS)[keyof typeof LEAD_STATUS];

const TOKEN_MAX = 512;
const URL_MAX = 2048;

/** Our lead ids are ≥128-bit random, URL-safe strings. */
/** Our lead id as a lender protocol carries it. */
export const leadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/);
/** Our lead id, or the key of one waterfall attempt (the lead id and the attempt's number). */
export const attemptKeySchema = z.string().regex(/^[A-Za-z0-9_-]{16,160}$/);
/** The network's own lead id, whatever its format. */
const networkLeadIdSchema = z.string().min(1).max(128);
const httpUrlSchema = z.url({ protocol: /^https?$/ }).max(URL_MAX);
const isoDateSchema = z.string().refine(isIsoDate, 'Expected a calendar date YYYY-MM-DD');
const phoneSchema = z.string().refine(isValidUsPhone, 'Expected a 10-digit NANP phone number');
const yesNoSchema = z.enum(['YES', 'NO']);
const text = (max: number) => z.string().trim().min(1).max(max);
const token = z.string().max(TOKEN_MAX).optional();

/**
 * The network has no MILITARY income type: the observed funnel sent military income as SELF_EMPLOYMENT with
 * `activeMilitary` YES (spec §7, step 9), and the final payload derives `activeMilitary` from the same choice.
 */
const NetworkIncomeTypeSchema = IncomeSourceSchema.exclude(['MILITARY']);

/**
 * POST {@link LENDER_NETWORK_PATHS.submit} body: spec §3 "Final submission payload", plus `partnerLeadId`, our
 * lead id, which the network uses as an idempotency key (posting the same lead twice creates one upstream lead).
 */
export const SubmissionPayloadSchema = z.object({
  productId: z.literal(19),
  price: z.literal(0),
  consentEmailSms: z.literal('YES'),
  consentToFcra: z.literal('YES'),
  closeConnection: z.literal(1),
  partnerLeadId: attemptKeySchema,

  lead_id: leadIdSchema,
  loanAmount: LoanAmountSchema,
  workCompanyName: text(100),
  jobTitle: text(100),
  activeMilitary: yesNoSchema,
  workTimeAtEmployer: EmployerTenureSchema,
  incomeType: NetworkIncomeTypeSchema,
  incomePaymentFrequency: PayFrequencySchema,
  incomeNetMonthly: MonthlyIncomeSchema,
  incomeNextDate1: isoDateSchema,
  incomeNextDate2: isoDateSchema,

  ssn: z
    .string()
    .regex(/^\d{3}-\d{2}-\d{4}$/)
    .refine(isValidSsn, 'Expected a valid SSN'),
  confirm_pii: z
    .string()
    .regex(/^\d{9}$/)
    .refine(isValidSsn, 'Expected a valid SSN'),
  driversLicenseNumber: text(25),
  driversLicenseState: UsStateCodeSchema,
  firstName: text(50),
  lastName: text(50),
  dob: isoDateSchema,

  bankDirectDeposit: DirectDepositSchema,
  bankAba: z.string().refine(isValidRoutingNumber, 'Expected a valid ABA routing number'),
  bankName: text(100),
  bankAccountNumber: z.string().regex(/^\d{4,17}$/),
  bankAccountType: BankAccountTypeSchema,
  bankAccountLengthMonths: BankTenureSchema,

  address: text(100),
  addressLengthMonths: ResidenceDurationSchema,
  city: text(64),
  // Not the 50-state list: a ZIP can place the address in DC or a territory.
  state: z.string().regex(/^[A-Z]{2}$/),
  zip: z.string().regex(/^\d{5}$/),
  ownHome: HomeOwnershipSchema,
  email: z.email().max(254),
  homePhone: phoneSchema,
  workPhone: phoneSchema,
  cellPhone: phoneSchema,
  userIp: z.union([z.ipv4(), z.ipv6()]),
  contactTime: ContactTimeSchema,

  creditScore: CreditScoreSchema,
  loanReason: LoanReasonSchema,
  userAgent: z.string().max(1024),
  debt_amount: UnsecuredDebtSchema,
  time_at_residence: ResidenceDurationSchema,
  own_car: OwnCarSchema,

  source: token,
  webSiteUrl: httpUrlSchema,
  utm_source: token,
  sub_source: token,
  platform: token,
  'tPar[affiliateId]': token,
  'tPar[affiliateSubId]': token,
  aff_id: token,
  source_id: token,
  trustedFormURL: httpUrlSchema.optional(),
  aff_sub1: token,
  aff_sub2: token,
  aff_sub3: token,
  aff_sub4: token,
  aff_sub5: token,
  jornayaLeadId: token,
  clickid: token,
  /** The network processes the lead without selling it. */
  testMode: z.boolean().optional(),
  /** With `testMode`: answer as if sold (true) or rejected (false), so the sandbox is deterministic. */
  testSold: z.boolean().optional(),
});
export type SubmissionPayload = z.infer<typeof SubmissionPayloadSchema>;

const redirectFields = {
  /** Where to send the visitor when sold. */
  redirect_url: httpUrlSchema.optional(),
  /** Where to send the visitor when rejected. */
  rejectUrl: httpUrlSchema.optional(),
};

/** Response to the submission. `data.lead_id` is the network's id, used to poll. */
export const SubmitResponseSchema = z.object({
  data: z.object({ status: z.number().int(), lead_id: networkLeadIdSchema }),
  ...redirectFields,
});
export type SubmitResponse = z.infer<typeof SubmitResponseSchema>;

/** GET {@link LENDER_NETWORK_PATHS.ping} query string. */
export const PingQuerySchema = z.object({
  lead_id: networkLeadIdSchema,
  checkKey: z.string().min(1).max(TOKEN_MAX),
  utm_source: token,
});
export type PingQuery = z.infer<typeof PingQuerySchema>;

/** Response to a status poll; the status sits two `data` levels down. */
export const PingResponseSchema = z.object({
  data: z.object({
    data: z.object({ status: z.number().int(), ...redirectFields }),
  }),
});
export type PingResponse = z.infer<typeof PingResponseSchema>;

/**
 * A complete stored lead in server field names, decrypted: what {@link buildSubmissionPayload} needs.
 * Keys come from the client↔server table so a rename there cannot silently miss this type.
 */
export interface SubmittableLead {
  [server.amount]: LoanAmount;
  [server.loanReason]: LoanReason;
  [server.zipCode]: string;
  [server.city]: string;
  [server.state]: string;
  [server.firstName]: string;
  [server.lastName]: string;
  [server.email]: string;
  /** The number asked on the /cellphone screen, 10 digits. */
  [server.phone]: string;
  [server.bestTimeContact]: ContactTime;
  /** 'YYYY-MM-DD'. */
  [server.dob]: string;
  [server.streetAddress]: string;
  [server.currentResidenceDuration]: ResidenceDuration;
  [server.residenceOwnership]: HomeOwnership;
  [server.incomeSource]: IncomeSource;
  [server.currentCompanyDuration]: EmployerTenure;
  [server.unsecuredDebtAmount]: UnsecuredDebt;
  [server.incomePaymentFrequency]: PayFrequency;
  [server.monthlyIncome]: MonthlyIncome;
  [server.incomeNextDate1]: string;
  [server.incomeNextDate2]: string;
  [server.employerName]: string;
  [server.jobTitle]: string;
  [server.employerPhone]: string;
  [server.getDirectDeposit]: DirectDeposit;
  [server.routingNumber]: string;
  [server.bankName]: string;
  [server.bankAccountType]: BankAccountType;
  [server.currentBankDuration]: BankTenure;
  [server.bankAccount]: string;
  [server.licenseID]: string;
  [server.issuingState]: UsStateCode;
  [server.ownCar]: OwnCar;
  [server.creditScoreRating]: CreditScore;
  /** Nine digits. */
  [server.socialSecurityNumber]: string;
}

/** Where a submission is made from; the worker takes it from the lead's consent evidence and its config. */
export interface SubmissionContext {
  /** Our lead id; sent as `lead_id`, and as the idempotency key `partnerLeadId` unless `idempotencyKey` is set. */
  leadId: string;
  /** The idempotency key of one attempt in a buyer waterfall (each attempt has its own). */
  idempotencyKey?: string;
  tracking: Tracking;
  userIp: string;
  userAgent: string;
  webSiteUrl: string;
  testMode?: boolean;
  testSold?: boolean;
}

type PayloadField = keyof SubmissionPayload;

/** Payload fields that are a stored-lead value unchanged. */
const FROM_LEAD = {
  loanAmount: server.amount,
  workCompanyName: server.employerName,
  jobTitle: server.jobTitle,
  workTimeAtEmployer: server.currentCompanyDuration,
  incomePaymentFrequency: server.incomePaymentFrequency,
  incomeNetMonthly: server.monthlyIncome,
  incomeNextDate1: server.incomeNextDate1,
  incomeNextDate2: server.incomeNextDate2,
  driversLicenseNumber: server.licenseID,
  driversLicenseState: server.issuingState,
  firstName: server.firstName,
  lastName: server.lastName,
  dob: server.dob,
  bankDirectDeposit: server.getDirectDeposit,
  bankAba: server.routingNumber,
  bankName: server.bankName,
  bankAccountNumber: server.bankAccount,
  bankAccountType: server.bankAccountType,
  bankAccountLengthMonths: server.currentBankDuration,
  address: server.streetAddress,
  addressLengthMonths: server.currentResidenceDuration,
  city: server.city,
  state: server.state,
  zip: server.zipCode,
  ownHome: server.residenceOwnership,
  email: server.email,
  // The funnel asks for one personal number (the /cellphone screen); the network has a field for each kind.
  homePhone: server.phone,
  cellPhone: server.phone,
  workPhone: server.employerPhone,
  contactTime: server.bestTimeContact,
  creditScore: server.creditScoreRating,
  loanReason: server.loanReason,
  debt_amount: server.unsecuredDebtAmount,
  time_at_residence: server.currentResidenceDuration,
  own_car: server.ownCar,
} as const satisfies { [K in PayloadField]?: keyof SubmittableLead };

/** Payload fields taken from the attribution tokens captured at landing (spec §3 "Tracking"). */
const FROM_TRACKING = {
  source: 'utmMedium',
  utm_source: 'utmSource',
  sub_source: 'subSource',
  platform: 'utmCampaign',
  'tPar[affiliateId]': 'affiliateId',
  'tPar[affiliateSubId]': 'affiliateSubId',
  aff_id: 'pubs',
  source_id: 'offerId',
  trustedFormURL: 'trustedFormUrl',
  aff_sub1: 'utmId',
  aff_sub2: 'visitorId',
  aff_sub3: 'fbp',
  aff_sub4: 'gclAw',
  aff_sub5: 'adId',
  jornayaLeadId: 'jornayaLeadId',
  clickid: 'clickId',
} as const satisfies { [K in PayloadField]?: keyof Tracking };

/** Constant for every lead (spec §3, §9). */
const FIXED = {
  productId: 19,
  price: 0,
  consentEmailSms: 'YES',
  consentToFcra: 'YES',
  closeConnection: 1,
} as const satisfies { [K in PayloadField]?: SubmissionPayload[K] };

/**
 * Builds the lender-network payload for a complete stored lead, and validates it.
 *
 * Derived fields: `incomeType` MILITARY is sent as SELF_EMPLOYMENT with `activeMilitary` YES (the network has no
 * military income type; spec §7 step 9); `ssn` is sent formatted ###-##-#### and `confirm_pii` as the nine digits
 * (spec §3 defines `confirm_pii` as "the SSN without dashes", so `ssn` is the dashed form); tracking tokens that
 * are absent or empty are left out. Throws a `ZodError` when the lead is incomplete or a value is out of range.
 */
export function buildSubmissionPayload(lead: SubmittableLead, context: SubmissionContext): SubmissionPayload {
  const payload: Record<string, unknown> = {
    ...FIXED,
    partnerLeadId: context.idempotencyKey ?? context.leadId,
    lead_id: context.leadId,
    userIp: context.userIp,
    userAgent: context.userAgent,
    webSiteUrl: context.webSiteUrl,
  };
  copyMappedFields(payload, lead, context.tracking, FROM_LEAD, FROM_TRACKING);

  const incomeSource = lead[server.incomeSource];
  const military = incomeSource === 'MILITARY';
  payload.incomeType = military ? 'SELF_EMPLOYMENT' : incomeSource;
  payload.activeMilitary = military ? 'YES' : 'NO';

  const ssn = lead[server.socialSecurityNumber];
  payload.ssn = formatSsn(ssn);
  payload.confirm_pii = ssnDigits(ssn);

  if (context.testMode !== undefined) payload.testMode = context.testMode;
  if (context.testSold !== undefined) payload.testSold = context.testSold;

  return SubmissionPayloadSchema.parse(payload);
}

const SERVER_NAME_OF: Readonly<Record<string, string>> = {
  ...FROM_LEAD,
  incomeType: server.incomeSource,
  activeMilitary: server.incomeSource,
  ssn: server.socialSecurityNumber,
  confirm_pii: server.socialSecurityNumber,
};

/**
 * Maps the network's field errors (a 400 answer's `fields`, keyed by payload field) back to our server field
 * names; a field that is not a lead field keeps the network's name.
 */
export function mapLenderFieldErrors(fields: Readonly<Record<string, string>>): MappedFieldError[] {
  return mapFieldErrors(SERVER_NAME_OF, Object.entries(fields));
}
