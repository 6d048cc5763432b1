/**
 * The synchronous-post buyer protocol, modelled on LeadsMarket-style networks: one POST carries the lead with a
 * `MinimumPrice` and a `MaxResponseTime`; the answer is final (`Sold` with a `Price` and `RedirectURL`,
 * `Rejected`, or `Error` with field errors). Re-posting at a lower `MinimumPrice` is how a seller walks the
 * network's price ladder. This is a fourth vocabulary of field names (PascalCase); the renaming from our server
 * names, and back for the errors a buyer reports, happens here and nowhere else.
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
  EmployerTenureSchema,
  IncomeSourceSchema,
  LoanAmountSchema,
  LoanReasonSchema,
  MonthlyIncomeSchema,
  PayFrequencySchema,
  ResidenceDurationSchema,
  UnsecuredDebtSchema,
  UsStateCodeSchema,
} from './options.js';
import {
  attemptKeySchema,
  leadIdSchema,
  type SubmissionContext,
  type SubmittableLead,
} from './lender-network.js';
import { isValidRoutingNumber } from './rules/aba.js';
import { isIsoDate } from './rules/calendar-date.js';
import { isValidUsPhone } from './rules/phone.js';
import { isValidSsn, ssnDigits } from './rules/ssn.js';

/** The one call, relative to the buyer's base URL. */
export const SYNC_POST_PATH = '/api/v2/leads';

/** `MaxResponseTime` bounds, seconds: 0 lets the network answer at once with what it has. */
export const SYNC_POST_MAX_RESPONSE_SECONDS = 180;

const isoDate = z.string().refine(isIsoDate, 'Expected a calendar date YYYY-MM-DD');
const phone = z.string().refine(isValidUsPhone, 'Expected a 10-digit NANP phone number');
const text = (max: number) => z.string().trim().min(1).max(max);
const token = z.string().max(512).optional();

/** POST {@link SYNC_POST_PATH} body. */
export const SyncPostPayloadSchema = z.object({
  /** Idempotency key of this attempt: the same key re-posted gets the first answer back, never a second lead. */
  IdempotencyKey: attemptKeySchema,
  /** Our lead id, the same on every attempt of the lead. */
  ReferenceID: leadIdSchema,
  MinimumPrice: z.number().min(0).max(100_000),
  MaxResponseTime: z.number().int().min(0).max(SYNC_POST_MAX_RESPONSE_SECONDS),
  TestMode: z.boolean().optional(),

  LoanAmount: LoanAmountSchema,
  LoanPurpose: LoanReasonSchema,
  CreditRating: CreditScoreSchema,
  UnsecuredDebt: UnsecuredDebtSchema,
  FirstName: text(50),
  LastName: text(50),
  Email: z.email().max(254),
  Phone: phone,
  WorkPhone: phone,
  BestTimeToCall: ContactTimeSchema,
  DateOfBirth: isoDate,
  SSN: z
    .string()
    .regex(/^\d{9}$/)
    .refine(isValidSsn, 'Expected a valid SSN'),
  DriversLicense: text(25),
  DriversLicenseState: UsStateCodeSchema,
  Address: text(100),
  City: text(64),
  State: z.string().regex(/^[A-Z]{2}$/),
  Zip: z.string().regex(/^\d{5}$/),
  MonthsAtAddress: ResidenceDurationSchema,
  RentOrOwn: z.enum(['RENT', 'OWN']),
  OwnsCar: z.boolean(),
  IncomeSource: IncomeSourceSchema,
  PayFrequency: PayFrequencySchema,
  MonthlyIncome: MonthlyIncomeSchema,
  NextPayDate: isoDate,
  SecondPayDate: isoDate,
  EmployerName: text(100),
  JobTitle: text(100),
  MonthsEmployed: EmployerTenureSchema,
  BankName: text(100),
  BankRoutingNumber: z.string().refine(isValidRoutingNumber, 'Expected a valid ABA routing number'),
  BankAccountNumber: z.string().regex(/^\d{4,17}$/),
  BankAccountType: BankAccountTypeSchema,
  MonthsAtBank: BankTenureSchema,
  DirectDeposit: z.boolean(),

  IPAddress: z.union([z.ipv4(), z.ipv6()]),
  UserAgent: z.string().max(1024),
  ClientURL: z.url({ protocol: /^https?$/ }).max(2048),
  TrustedFormCertURL: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  JornayaLeadID: token,
  SubID: token,
  SubID2: token,
  ClickID: token,
});
export type SyncPostPayload = z.infer<typeof SyncPostPayloadSchema>;

export const SYNC_POST_RESULTS = ['Sold', 'Rejected', 'Error'] as const;

/** One problem the buyer found with a field, in its own field names. */
export const SyncPostErrorSchema = z.object({
  Field: z.string().max(100),
  Value: z.string().max(1024).optional(),
  Description: z.string().max(500),
});

/** The answer: final, whatever it is. */
export const SyncPostResponseSchema = z.object({
  Result: z.enum(SYNC_POST_RESULTS),
  LeadID: z.string().min(1).max(128).optional(),
  /** What the buyer pays, dollars; at least the posted `MinimumPrice` when sold. */
  Price: z.number().min(0).optional(),
  RedirectURL: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  Errors: z.array(SyncPostErrorSchema).max(100).default([]),
});
export type SyncPostResponse = z.infer<typeof SyncPostResponseSchema>;

/** What one attempt posts besides the lead: its own key, the price floor and how long the buyer may take. */
export interface SyncPostAttempt {
  idempotencyKey: string;
  minimumPrice: number;
  maxResponseSeconds: number;
}

type PayloadField = keyof SyncPostPayload;

/** Payload fields that are a stored-lead value unchanged, and the way back for field errors. */
const FROM_LEAD = {
  LoanAmount: server.amount,
  LoanPurpose: server.loanReason,
  CreditRating: server.creditScoreRating,
  UnsecuredDebt: server.unsecuredDebtAmount,
  FirstName: server.firstName,
  LastName: server.lastName,
  Email: server.email,
  Phone: server.phone,
  WorkPhone: server.employerPhone,
  BestTimeToCall: server.bestTimeContact,
  DateOfBirth: server.dob,
  DriversLicense: server.licenseID,
  DriversLicenseState: server.issuingState,
  Address: server.streetAddress,
  City: server.city,
  State: server.state,
  Zip: server.zipCode,
  MonthsAtAddress: server.currentResidenceDuration,
  IncomeSource: server.incomeSource,
  PayFrequency: server.incomePaymentFrequency,
  MonthlyIncome: server.monthlyIncome,
  NextPayDate: server.incomeNextDate1,
  SecondPayDate: server.incomeNextDate2,
  EmployerName: server.employerName,
  JobTitle: server.jobTitle,
  MonthsEmployed: server.currentCompanyDuration,
  BankName: server.bankName,
  BankRoutingNumber: server.routingNumber,
  BankAccountNumber: server.bankAccount,
  BankAccountType: server.bankAccountType,
  MonthsAtBank: server.currentBankDuration,
} as const satisfies { [K in PayloadField]?: keyof SubmittableLead };

/** Payload fields derived from one stored field (a different value vocabulary). */
const DERIVED_FROM_LEAD = {
  SSN: server.socialSecurityNumber,
  RentOrOwn: server.residenceOwnership,
  OwnsCar: server.ownCar,
  DirectDeposit: server.getDirectDeposit,
} as const satisfies { [K in PayloadField]?: keyof SubmittableLead };

const FROM_TRACKING = {
  TrustedFormCertURL: 'trustedFormUrl',
  JornayaLeadID: 'jornayaLeadId',
  SubID: 'affiliateId',
  SubID2: 'affiliateSubId',
  ClickID: 'clickId',
} as const;

/**
 * Builds the sync-post payload of one attempt for a complete stored lead, and validates it. Derived fields:
 * `SSN` is the nine digits; `RentOrOwn` is OWN when the borrower owns the home; `OwnsCar` and `DirectDeposit`
 * are booleans (YES → true). Throws a `ZodError` when the lead is incomplete or a value is out of range.
 */
export function buildSyncPostPayload(
  lead: SubmittableLead,
  context: Omit<SubmissionContext, 'testSold'>,
  attempt: SyncPostAttempt,
): SyncPostPayload {
  const payload: Record<string, unknown> = {
    IdempotencyKey: attempt.idempotencyKey,
    ReferenceID: context.leadId,
    MinimumPrice: attempt.minimumPrice,
    MaxResponseTime: Math.max(
      0,
      Math.min(SYNC_POST_MAX_RESPONSE_SECONDS, Math.floor(attempt.maxResponseSeconds)),
    ),
    IPAddress: context.userIp,
    UserAgent: context.userAgent,
    ClientURL: context.webSiteUrl,
  };
  copyMappedFields(payload, lead, context.tracking, FROM_LEAD, FROM_TRACKING);
  payload.SSN = ssnDigits(lead[server.socialSecurityNumber]);
  payload.RentOrOwn = lead[server.residenceOwnership] === 'YES' ? 'OWN' : 'RENT';
  payload.OwnsCar = lead[server.ownCar] === 'YES';
  payload.DirectDeposit = lead[server.getDirectDeposit] === 'YES';
  if (context.testMode !== undefined) payload.TestMode = context.testMode;
  return SyncPostPayloadSchema.parse(payload);
}

const SERVER_NAME_OF: Readonly<Record<string, string>> = { ...FROM_LEAD, ...DERIVED_FROM_LEAD };

/**
 * Maps a buyer's `Errors` back to our field names. The reported `Value` is left out on purpose: it may be an
 * SSN or an account number, and the mapped errors are stored with the attempt.
 */
export function mapSyncPostErrors(
  errors: readonly z.infer<typeof SyncPostErrorSchema>[],
): MappedFieldError[] {
  return mapFieldErrors(
    SERVER_NAME_OF,
    errors.map((error) => [error.Field, error.Description] as const),
  );
}
