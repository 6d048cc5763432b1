/**
 * The operator reports over the system of record (PostgreSQL): what the BFF's `/api/v1/admin/reports/*`
 * endpoints take and answer, and what the operator page renders. Dates are calendar days in the business time
 * zone; a lead belongs to the day it was created.
 */
import * as z from 'zod';
import { STEP_NAMES } from './landing.js';
import { ScreeningBandSchema, ScreeningReasonSchema } from './screening.js';

const IsoDaySchema = z.iso.date();

/** A calendar day 'YYYY-MM-DD', with messages that name the query parameter `name` (issue 33). */
export function isoDay(name: string) {
  return z.iso.date({
    error: (issue) =>
      issue.input === undefined
        ? `${name} is required: a date as YYYY-MM-DD.`
        : `${name} must be a date as YYYY-MM-DD, such as 2026-11-10.`,
  });
}

/** An optional text filter: trimmed, not empty, at most `max` characters. */
export function textFilter(name: string, max: number) {
  return z
    .string({ error: `${name} must be text.` })
    .trim()
    .min(1, { error: `${name} must not be empty: leave it out to include every ${name}.` })
    .max(max, { error: `${name} must be at most ${max} characters.` })
    .optional();
}

/** Where a lead came from: the borrower funnel, or a partner's API post. */
export const LEAD_SOURCES = ['funnel', 'partner'] as const;
export const LeadSourceSchema = z.enum(LEAD_SOURCES);
export type LeadSource = z.infer<typeof LeadSourceSchema>;
/** Each source in an operator's words. */
export const LEAD_SOURCE_LABELS: Record<LeadSource, string> = {
  funnel: 'Funnel (borrowers)',
  partner: 'Partner API',
};

/** The longest range a report covers, so one request cannot scan the whole history. */
export const REPORT_MAX_DAYS = 366;

/** The filters every report takes, as query parameters. `to` is inclusive. */
export const ReportQuerySchema = z
  .object({
    from: isoDay('from'),
    to: isoDay('to'),
    affiliate: textFilter('affiliate', 64),
    utmSource: textFilter('utmSource', 128),
    source: z.enum(LEAD_SOURCES, { error: `source must be one of: ${LEAD_SOURCES.join(', ')}.` }).optional(),
    format: z.enum(['json', 'csv'], { error: 'format must be json or csv.' }).default('json'),
  })
  .refine((q) => q.from <= q.to, { error: "'from' must not be after 'to'.", path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < REPORT_MAX_DAYS, {
    error: `A report covers at most ${REPORT_MAX_DAYS} days.`,
    path: ['to'],
  });
export type ReportQuery = z.infer<typeof ReportQuerySchema>;

/** The funnel's positions in wizard order: the landing form, then each step screen. */
export const FUNNEL_POSITIONS = ['landing', ...STEP_NAMES] as const;
export const FunnelPositionSchema = z.enum(FUNNEL_POSITIONS);
export type FunnelPosition = z.infer<typeof FunnelPositionSchema>;

/**
 * What the operator page calls each position: a short name of the screen (issue 25: it showed the step ids,
 * which only the CSV keeps).
 */
export const FUNNEL_POSITION_LABELS: Record<FunnelPosition, string> = {
  landing: 'Landing form',
  lgname: 'Name',
  email: 'Email',
  cellphone: 'Phone',
  besttimecontact: 'Best time to call',
  dob: 'Date of birth',
  address: 'Address',
  hometime: 'Time at address',
  ownhome: 'Own or rent',
  incomesource: 'Income source',
  emptime: 'Time at employer',
  unsecureddebtamount: 'Unsecured debt',
  payfreequency: 'Pay frequency',
  grossincome: 'Monthly income',
  nextpaydate: 'Next pay date',
  empinfor: 'Employer',
  workphone: 'Work phone',
  deposit: 'Direct deposit',
  aba: 'Routing number',
  banktype: 'Account type',
  banktime: 'Time at bank',
  bankaccount: 'Account number',
  driverid: "Driver's license",
  owncar: 'Own a car',
  creditscore: 'Credit score',
  ssn: 'SSN',
};

/**
 * One position of the funnel. `reached`: leads that arrived at it (for a step, leads that completed the
 * position before it; for the landing form, leads created). `completed`: leads that saved it. `dropOff`:
 * reached minus completed, and `dropOffRate` that as a share of reached (0 when none reached).
 */
export const FunnelStepRowSchema = z.object({
  step: FunnelPositionSchema,
  reached: z.number().int().nonnegative(),
  completed: z.number().int().nonnegative(),
  dropOff: z.number().int().nonnegative(),
  dropOffRate: z.number().min(0).max(1),
});
export type FunnelStepRow = z.infer<typeof FunnelStepRowSchema>;

/** How the leads of the range ended up (a lead still waiting counts as submitted only). */
export const FunnelOutcomesSchema = z.object({
  created: z.number().int().nonnegative(),
  submitted: z.number().int().nonnegative(),
  sold: z.number().int().nonnegative(),
  rejected: z.number().int().nonnegative(),
  noLender: z.number().int().nonnegative(),
});
export type FunnelOutcomes = z.infer<typeof FunnelOutcomesSchema>;

/**
 * How many leads of the range ended with one outcome for one reason (the worker's outcome reason:
 * `no_buyer_decided`, `all_buyers_declined`, `deadline`, `duplicate`, …; null when none was recorded).
 * Only leads that were not sold; ordered by outcome, then by count.
 */
export const OutcomeReasonRowSchema = z.object({
  outcome: z.enum(['rejected', 'no_lender']),
  reason: z.string().nullable(),
  leads: z.number().int().nonnegative(),
});
export type OutcomeReasonRow = z.infer<typeof OutcomeReasonRowSchema>;

const AppliedFiltersSchema = z.object({
  from: IsoDaySchema,
  to: IsoDaySchema,
  affiliate: z.string().optional(),
  utmSource: z.string().optional(),
  source: LeadSourceSchema.optional(),
});

/** `GET /api/v1/admin/reports/funnel`. */
export const FunnelReportSchema = z.object({
  filters: AppliedFiltersSchema,
  steps: z.array(FunnelStepRowSchema),
  outcomes: FunnelOutcomesSchema,
  /** Why the leads that were not sold ended as they did. */
  outcomeReasons: z.array(OutcomeReasonRowSchema),
});
export type FunnelReport = z.infer<typeof FunnelReportSchema>;

/** A report that is a list of rows, with the filters it was computed over. */
function rowsReport<Row extends z.ZodType>(row: Row) {
  return z.object({ filters: AppliedFiltersSchema, rows: z.array(row) });
}

/**
 * One affiliate's day. `affiliate` is null for leads without one (direct traffic). `soldRate` is sold ÷
 * submitted (0 when none submitted); the decision times are over the day's decided leads, null when none.
 */
export const SalesRowSchema = z.object({
  day: IsoDaySchema,
  affiliate: z.string().nullable(),
  submitted: z.number().int().nonnegative(),
  sold: z.number().int().nonnegative(),
  soldRate: z.number().min(0).max(1),
  medianSecondsToDecision: z.number().nonnegative().nullable(),
  p90SecondsToDecision: z.number().nonnegative().nullable(),
});
export type SalesRow = z.infer<typeof SalesRowSchema>;

/** `GET /api/v1/admin/reports/sales`: rows ordered by day, then affiliate. */
export const SalesReportSchema = rowsReport(SalesRowSchema);
export type SalesReport = z.infer<typeof SalesReportSchema>;

/**
 * What the sales of the range earned once buyers' returns are counted (ADR 0020, "Returns and conversions"),
 * over the leads created in the range, whenever the return came. `revenue` is gross: every sale's price.
 * `returns` and `returnedRevenue`: approved returns and the prices they reversed; `netRevenue` = revenue −
 * returnedRevenue. `pendingReturns`: returns waiting for an operator (not reversed yet). `conversions`: sales
 * the buyer reported funded, `fundedAmount` their loan amounts.
 */
const RevenueFiguresSchema = z.object({
  revenue: z.number().nonnegative(),
  returns: z.number().int().nonnegative(),
  returnedRevenue: z.number().nonnegative(),
  netRevenue: z.number(),
  pendingReturns: z.number().int().nonnegative(),
  conversions: z.number().int().nonnegative(),
  fundedAmount: z.number().nonnegative(),
});
export type RevenueFigures = z.infer<typeof RevenueFiguresSchema>;

/**
 * One buyer's waterfall attempts over the leads created in the range. `acceptRate` is sold ÷ attempts that
 * reached the buyer (capped ones did not); `averagePrice` is revenue ÷ sold, null when none sold.
 */
export const BuyerSalesRowSchema = RevenueFiguresSchema.extend({
  buyer: z.string(),
  attempts: z.number().int().nonnegative(),
  sold: z.number().int().nonnegative(),
  acceptRate: z.number().min(0).max(1),
  averagePrice: z.number().nonnegative().nullable(),
  timeouts: z.number().int().nonnegative(),
  /** Attempts a full cap kept from the buyer. */
  capped: z.number().int().nonnegative(),
});
export type BuyerSalesRow = z.infer<typeof BuyerSalesRowSchema>;

/** `GET /api/v1/admin/reports/buyers`: one row per buyer, by revenue. */
export const BuyerSalesReportSchema = rowsReport(BuyerSalesRowSchema);
export type BuyerSalesReport = z.infer<typeof BuyerSalesReportSchema>;

/**
 * One affiliate's sales over the leads it sent that were created in the range (null: leads without one), and
 * `payoutsReversed`: what its payouts lost to approved returns of leads it had been paid for.
 */
export const AffiliateRevenueRowSchema = RevenueFiguresSchema.extend({
  affiliate: z.string().nullable(),
  sold: z.number().int().nonnegative(),
  payoutsReversed: z.number().nonnegative(),
});

/** `GET /api/v1/admin/reports/affiliates`: one row per affiliate, by net revenue. */
export const AffiliateRevenueReportSchema = rowsReport(AffiliateRevenueRowSchema);
export type AffiliateRevenueReport = z.infer<typeof AffiliateRevenueReportSchema>;

/**
 * One affiliate's screened leads created in the range (issue 41, ADR 0030): what screening passed, flagged and
 * blocked, and each finding with the number of its leads that had it: the affiliate quality report.
 */
export const QualityRowSchema = z.object({
  affiliate: z.string().nullable(),
  screened: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  flagged: z.number().int().nonnegative(),
  blocked: z.number().int().nonnegative(),
  /** (flagged + blocked) ÷ screened. */
  flaggedOrBlockedRate: z.number().min(0).max(1),
  findings: z.array(z.object({ reason: ScreeningReasonSchema, leads: z.number().int().positive() })),
});
export type QualityRow = z.infer<typeof QualityRowSchema>;

/** The sold leads of one screening band and how many a buyer returned (approved): does the score predict them? */
export const QualityBandRowSchema = z.object({
  band: ScreeningBandSchema,
  sold: z.number().int().nonnegative(),
  returned: z.number().int().nonnegative(),
  /** returned ÷ sold (0 when none sold). */
  returnRate: z.number().min(0).max(1),
});

/** `GET /api/v1/admin/reports/quality`: by affiliate, most flagged or blocked first, and returns by band. */
export const QualityReportSchema = z.object({
  filters: AppliedFiltersSchema,
  rows: z.array(QualityRowSchema),
  bands: z.array(QualityBandRowSchema),
});
export type QualityReport = z.infer<typeof QualityReportSchema>;

/** `GET /api/v1/admin/reports/dimensions`: the values the filters can take over the range, for pickers. */
export const ReportDimensionsSchema = z.object({
  affiliates: z.array(z.string()),
  utmSources: z.array(z.string()),
  sources: z.array(LeadSourceSchema),
});
export type ReportDimensions = z.infer<typeof ReportDimensionsSchema>;

/**
 * `GET /api/v1/admin/reports/dashboard`: the five reports the console's dashboard shows, over the same filters,
 * in one answer, so one view of it is one `reports.read` entry in the audit log, not four burying the reveals.
 */
export const ReportsDashboardSchema = z
  .object({
    funnel: FunnelReportSchema,
    sales: SalesReportSchema,
    buyers: BuyerSalesReportSchema,
    affiliates: AffiliateRevenueReportSchema,
    quality: QualityReportSchema,
  })
  .meta({ id: 'ReportsDashboard' });
export type ReportsDashboard = z.infer<typeof ReportsDashboardSchema>;
