/**
 * The ping/post buyer protocol (issue 27, ADR 0020), as LeadByte, Pingtree, Phonexa or PX speak it. A ping
 * carries only non-identifying fields (bands and codes, never a name, contact, address, birth date, SSN, bank,
 * licence, IP or click id) and is answered by a bid `{ BidID, Price, ExpiresAt }` or no bid. The full lead is
 * then posted with the `BidID`, the pinged fields copied verbatim (`Pinged`, the buyer's anti-tamper check), and
 * the rest of the lead (`Lead`); the post is answered Accepted (with the price paid and an address), Rejected,
 * or Error with field errors. Field names are the sync-post network's (PascalCase): the renaming from our server
 * names, and back for the errors, happens here and in `sync-post-network.ts`, nowhere else.
 */
import * as z from 'zod';
import { mapFieldErrors, type MappedFieldError } from './buyer-field-errors.js';
import { CLIENT_TO_SERVER as server } from './fields.js';
import {
  BankAccountTypeSchema,
  BankTenureSchema,
  CreditScoreSchema,
  EmployerTenureSchema,
  IncomeSourceSchema,
  LoanAmountSchema,
  LoanReasonSchema,
  MonthlyIncomeSchema,
  PayFrequencySchema,
  ResidenceDurationSchema,
  UnsecuredDebtSchema,
} from './options.js';
import { ScreeningBandSchema, type ScreeningBand } from './screening.js';
import {
  attemptKeySchema,
  leadIdSchema,
  type SubmissionContext,
  type SubmittableLead,
} from './lender-network.js';
import { AGE_BANDS, ageBandOn } from './age-band.js';
import {
  SyncPostErrorSchema,
  SyncPostPayloadSchema,
  buildSyncPostPayload,
  mapSyncPostErrors,
} from './sync-post-network.js';

/** The two calls, relative to the buyer's base URL. */
export const PING_POST_PATHS = { ping: '/api/v1/ping', post: '/api/v1/post' } as const;

/** A ping's own id: opaque (never our lead id), the same when one attempt is pinged again after a crash. */
const pingIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);
const bidIdSchema = z.string().min(1).max(128);

/**
 * What a ping tells the buyer about the borrower: every field a band or a code that many people share. Strict:
 * a buyer (and the sandbox) refuses any other field, so an identifying field cannot slip in unnoticed.
 */
export const PingFieldsSchema = z
  .object({
    State: z.string().regex(/^[A-Z]{2}$/),
    /** The first three digits of the ZIP code. */
    Zip3: z.string().regex(/^\d{3}$/),
    LoanAmount: LoanAmountSchema,
    LoanPurpose: LoanReasonSchema,
    CreditRating: CreditScoreSchema,
    UnsecuredDebt: UnsecuredDebtSchema,
    /** Already a band: the lower bound of the gross monthly income band chosen. */
    MonthlyIncome: MonthlyIncomeSchema,
    PayFrequency: PayFrequencySchema,
    IncomeSource: IncomeSourceSchema,
    AgeBand: z.enum(AGE_BANDS),
    RentOrOwn: z.enum(['RENT', 'OWN']),
    /** Bands, in months, as the form asks them. */
    MonthsAtAddress: ResidenceDurationSchema,
    MonthsEmployed: EmployerTenureSchema,
    MonthsAtBank: BankTenureSchema,
    BankAccountType: BankAccountTypeSchema,
    DirectDeposit: z.boolean(),
    OwnsCar: z.boolean(),
  })
  .strict();
export type PingFields = z.infer<typeof PingFieldsSchema>;

/** POST {@link PING_POST_PATHS}.ping body. */
export const PingPayloadSchema = z
  .object({
    /** The same id pinged again gets the same answer back (a replay), never a second bid. */
    PingID: pingIdSchema,
    /** How long the buyer has to answer, milliseconds; no answer by then is no bid. */
    MaxResponseMs: z.number().int().min(0).max(60_000),
    TestMode: z.boolean().optional(),
    /** Screening's band for the lead (A best, D worst; ADR 0030), when it was screened. */
    QualityBand: ScreeningBandSchema.optional(),
    Fields: PingFieldsSchema,
  })
  .strict();
export type PingPayload = z.infer<typeof PingPayloadSchema>;

/**
 * Every field of a full lead that a ping never carries, in our server names: the identifying ones (name,
 * contact, street, city, ZIP, birth date, SSN, licence, employer, bank) and the exact values a ping only bands.
 * A test builds this list from the lead's own fields, so a field added to the lead is listed here or pinged.
 */
export const PING_WITHHELD_FIELDS = [
  server.firstName,
  server.lastName,
  server.email,
  server.phone,
  server.employerPhone,
  server.bestTimeContact,
  server.dob,
  server.streetAddress,
  server.city,
  server.zipCode,
  server.socialSecurityNumber,
  server.licenseID,
  server.issuingState,
  server.employerName,
  server.jobTitle,
  server.incomeNextDate1,
  server.incomeNextDate2,
  server.bankName,
  server.routingNumber,
  server.bankAccount,
] as const satisfies readonly (keyof SubmittableLead)[];

/** Ping fields that are a stored value unchanged or recoded, and the way back for field errors. */
const PING_FROM_LEAD = {
  State: server.state,
  Zip3: server.zipCode,
  LoanAmount: server.amount,
  LoanPurpose: server.loanReason,
  CreditRating: server.creditScoreRating,
  UnsecuredDebt: server.unsecuredDebtAmount,
  MonthlyIncome: server.monthlyIncome,
  PayFrequency: server.incomePaymentFrequency,
  IncomeSource: server.incomeSource,
  AgeBand: server.dob,
  RentOrOwn: server.residenceOwnership,
  MonthsAtAddress: server.currentResidenceDuration,
  MonthsEmployed: server.currentCompanyDuration,
  MonthsAtBank: server.currentBankDuration,
  BankAccountType: server.bankAccountType,
  DirectDeposit: server.getDirectDeposit,
  OwnsCar: server.ownCar,
} as const satisfies { [K in keyof PingFields]: keyof SubmittableLead };

/** What one ping sends besides the lead: its opaque id, the buyer's time and the day ages are counted on. */
export interface PingAttempt {
  pingId: string;
  maxResponseMs: number;
  /** Today in the business time zone, YYYY-MM-DD: the age band is the age on this day. */
  today: string;
  /** Screening's band for the lead, when it was screened. */
  qualityBand?: ScreeningBand | undefined;
}

/**
 * The ping of a complete stored lead, validated: only {@link PingFieldsSchema}'s fields, `Zip3` the ZIP's first
 * three digits, `AgeBand` the age on `attempt.today`, the yes/no answers as booleans and OWN/RENT. Throws a
 * `ZodError` when the lead is incomplete or a value is out of range.
 */
export function buildPingPayload(
  lead: SubmittableLead,
  context: Pick<SubmissionContext, 'testMode'>,
  attempt: PingAttempt,
): PingPayload {
  const fields: Record<keyof PingFields, unknown> = {
    State: lead[server.state],
    Zip3: String(lead[server.zipCode]).slice(0, 3),
    LoanAmount: lead[server.amount],
    LoanPurpose: lead[server.loanReason],
    CreditRating: lead[server.creditScoreRating],
    UnsecuredDebt: lead[server.unsecuredDebtAmount],
    MonthlyIncome: lead[server.monthlyIncome],
    PayFrequency: lead[server.incomePaymentFrequency],
    IncomeSource: lead[server.incomeSource],
    AgeBand: ageBandOn(lead[server.dob], attempt.today),
    RentOrOwn: lead[server.residenceOwnership] === 'YES' ? 'OWN' : 'RENT',
    MonthsAtAddress: lead[server.currentResidenceDuration],
    MonthsEmployed: lead[server.currentCompanyDuration],
    MonthsAtBank: lead[server.currentBankDuration],
    BankAccountType: lead[server.bankAccountType],
    DirectDeposit: lead[server.getDirectDeposit] === 'YES',
    OwnsCar: lead[server.ownCar] === 'YES',
  };
  return PingPayloadSchema.parse({
    PingID: attempt.pingId,
    MaxResponseMs: Math.max(0, Math.min(60_000, Math.floor(attempt.maxResponseMs))),
    ...(context.testMode !== undefined ? { TestMode: context.testMode } : {}),
    ...(attempt.qualityBand ? { QualityBand: attempt.qualityBand } : {}),
    Fields: fields,
  });
}

/** The ping's answer: a bid the buyer holds until `ExpiresAt`, or no bid. */
export const BidResponseSchema = z.discriminatedUnion('Result', [
  z.object({
    Result: z.literal('Bid'),
    BidID: bidIdSchema,
    /** What the buyer pays, dollars, if the post is accepted. */
    Price: z.number().positive().max(100_000),
    ExpiresAt: z.iso.datetime({ offset: true }),
  }),
  z.object({ Result: z.literal('NoBid') }),
]);
export type BidResponse = z.infer<typeof BidResponseSchema>;

/** A bid as the seller holds it: `expiresAt` in milliseconds since the epoch. */
export interface Bid {
  bidId: string;
  price: number;
  expiresAt: number;
}

/** The bid of a ping's answer, or undefined for no bid. */
export function bidOf(answer: BidResponse): Bid | undefined {
  if (answer.Result === 'NoBid') return undefined;
  return { bidId: answer.BidID, price: answer.Price, expiresAt: Date.parse(answer.ExpiresAt) };
}

/**
 * Whether a bid is still worth posting at `now`: it must outlive the post's trip to the buyer, so it counts as
 * expired `marginMs` before its `expiresAt` (the buyer's clock and the network are not ours).
 */
export function isBidLive(bid: Pick<Bid, 'expiresAt'>, now: number, marginMs: number): boolean {
  return now + marginMs < bid.expiresAt;
}

/** The post's `Lead`: the sync-post lead fields a ping withholds, and where the lead came from. */
const POST_LEAD_FIELDS = [
  'FirstName',
  'LastName',
  'Email',
  'Phone',
  'WorkPhone',
  'BestTimeToCall',
  'DateOfBirth',
  'SSN',
  'DriversLicense',
  'DriversLicenseState',
  'Address',
  'City',
  'Zip',
  'NextPayDate',
  'SecondPayDate',
  'EmployerName',
  'JobTitle',
  'BankName',
  'BankRoutingNumber',
  'BankAccountNumber',
  'IPAddress',
  'UserAgent',
  'ClientURL',
  'TrustedFormCertURL',
  'JornayaLeadID',
  'SubID',
  'SubID2',
  'ClickID',
] as const;

const postLeadShape = Object.fromEntries(
  POST_LEAD_FIELDS.map((field) => [field, SyncPostPayloadSchema.shape[field]]),
) as { [K in (typeof POST_LEAD_FIELDS)[number]]: (typeof SyncPostPayloadSchema.shape)[K] };

export const PostLeadSchema = z.object(postLeadShape).strict();

/** POST {@link PING_POST_PATHS}.post body. */
export const PostPayloadSchema = z
  .object({
    /** Idempotency key of this attempt: the same key re-posted gets the first answer back. */
    IdempotencyKey: attemptKeySchema,
    /** Our lead id, the same on every attempt of the lead. */
    ReferenceID: leadIdSchema,
    BidID: bidIdSchema,
    TestMode: z.boolean().optional(),
    /** The ping's `Fields` exactly as pinged: a buyer refuses a post whose pinged data changed. */
    Pinged: PingFieldsSchema,
    Lead: PostLeadSchema,
  })
  .strict();
export type PostPayload = z.infer<typeof PostPayloadSchema>;

/** What one post sends besides the lead: its key, the bid it answers and the fields that bid was made on. */
export interface PostAttempt {
  idempotencyKey: string;
  bidId: string;
  pinged: PingFields;
}

/**
 * The post of a bid: `Pinged` is the ping's `Fields` as sent (never rebuilt from the lead), `Lead` the rest of
 * the lead in the sync-post vocabulary. Throws a `ZodError` when the lead is incomplete or a value is out of
 * range.
 */
export function buildPostPayload(
  lead: SubmittableLead,
  context: Omit<SubmissionContext, 'testSold'>,
  attempt: PostAttempt,
): PostPayload {
  const full = buildSyncPostPayload(lead, context, {
    idempotencyKey: attempt.idempotencyKey,
    minimumPrice: 0,
    maxResponseSeconds: 0,
  });
  const rest: Record<string, unknown> = {};
  for (const field of POST_LEAD_FIELDS) if (full[field] !== undefined) rest[field] = full[field];
  return PostPayloadSchema.parse({
    IdempotencyKey: attempt.idempotencyKey,
    ReferenceID: context.leadId,
    BidID: attempt.bidId,
    ...(context.testMode !== undefined ? { TestMode: context.testMode } : {}),
    Pinged: attempt.pinged,
    Lead: rest,
  });
}

/** Why a buyer turned a post down, when it says. */
export const POST_REJECT_REASONS = ['Declined', 'BidExpired', 'UnknownBid', 'Tampered', 'BidUsed'] as const;

/** The post's answer: final, whatever it is. */
export const PostResponseSchema = z.object({
  Result: z.enum(['Accepted', 'Rejected', 'Error']),
  LeadID: z.string().min(1).max(128).optional(),
  /** What the buyer pays, dollars: the bid's price unless it says otherwise. */
  Price: z.number().min(0).optional(),
  RedirectURL: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  Reason: z.enum(POST_REJECT_REASONS).optional(),
  /** Field names as `Pinged.X` or `Lead.X` (or bare `X`). */
  Errors: z.array(SyncPostErrorSchema).max(100).default([]),
});
export type PostResponse = z.infer<typeof PostResponseSchema>;

/**
 * Maps a buyer's post `Errors` back to our field names (`Pinged.AgeBand` → dob, `Lead.BankRoutingNumber` →
 * bank_aba). The reported `Value` is left out on purpose: it may be an SSN or an account number.
 */
export function mapPingPostErrors(
  errors: readonly z.infer<typeof SyncPostErrorSchema>[],
): MappedFieldError[] {
  return errors.flatMap((error) => {
    const bare = error.Field.replace(/^(Pinged|Lead|Fields)\./, '');
    const pinged = (PING_FROM_LEAD as Readonly<Record<string, string>>)[bare];
    if (pinged) return mapFieldErrors({ [error.Field]: pinged }, [[error.Field, error.Description]]);
    return mapSyncPostErrors([{ ...error, Field: bare }]).map((mapped) => ({
      ...mapped,
      buyerField: error.Field.slice(0, 100),
    }));
  });
}
