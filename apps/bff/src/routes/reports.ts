import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type * as z from 'zod';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  AffiliateRevenueReportSchema,
  BuyerSalesReportSchema,
  FunnelReportSchema,
  QualityReportSchema,
  ReportQuerySchema,
  SalesReportSchema,
  type AffiliateRevenueReport,
  type BuyerSalesReport,
  type RevenueFigures,
  type FunnelReport,
  type QualityReport,
  type ReportQuery,
  type ReportsDashboard,
  ReportsDashboardSchema,
  type SalesReport,
} from '@funnel/contracts/reports';
import type { Database } from '@funnel/db/database';
import { buyerSalesReport, funnelReport, salesReport } from '@funnel/db/reports';
import { qualityReport } from '@funnel/db/quality-report';
import { affiliateRevenueReport } from '@funnel/db/revenue-report';
import { csv, sendCsv } from '../admin/csv.js';
import { auditedFields, operatorRoute } from '../admin/operator-route.js';
import { readSystemOfRecord } from '../system-of-record/read-system-of-record.js';

export interface ReportRoutesOptions {
  /** The system of record; undefined when DATABASE_URL is not set. */
  db: Kysely<Database> | undefined;
  /** Days are calendar days in this zone. */
  timeZone: string;
}

function funnelCsv(report: FunnelReport): string {
  return csv(
    ['step', 'reached', 'completed', 'drop_off', 'drop_off_rate'],
    report.steps.map((r) => [r.step, r.reached, r.completed, r.dropOff, r.dropOffRate.toFixed(4)]),
  );
}

function salesCsv(report: SalesReport): string {
  return csv(
    [
      'day',
      'affiliate',
      'submitted',
      'sold',
      'sold_rate',
      'median_seconds_to_decision',
      'p90_seconds_to_decision',
    ],
    report.rows.map((r) => [
      r.day,
      r.affiliate,
      r.submitted,
      r.sold,
      r.soldRate.toFixed(4),
      r.medianSecondsToDecision,
      r.p90SecondsToDecision,
    ]),
  );
}

/** The revenue columns both the buyer and the affiliate reports end with. */
const REVENUE_HEADER = [
  'revenue',
  'returns',
  'returned_revenue',
  'net_revenue',
  'pending_returns',
  'conversions',
  'funded_amount',
];
function revenueCells(r: RevenueFigures): unknown[] {
  return [
    r.revenue.toFixed(2),
    r.returns,
    r.returnedRevenue.toFixed(2),
    r.netRevenue.toFixed(2),
    r.pendingReturns,
    r.conversions,
    r.fundedAmount.toFixed(2),
  ];
}

function buyersCsv(report: BuyerSalesReport): string {
  return csv(
    ['buyer', 'attempts', 'sold', 'accept_rate', 'average_price', 'timeouts', 'capped', ...REVENUE_HEADER],
    report.rows.map((r) => [
      r.buyer,
      r.attempts,
      r.sold,
      r.acceptRate.toFixed(4),
      r.averagePrice?.toFixed(2),
      r.timeouts,
      r.capped,
      ...revenueCells(r),
    ]),
  );
}

function affiliatesCsv(report: AffiliateRevenueReport): string {
  return csv(
    ['affiliate', 'sold', ...REVENUE_HEADER, 'payouts_reversed'],
    report.rows.map((r) => [r.affiliate, r.sold, ...revenueCells(r), r.payoutsReversed.toFixed(2)]),
  );
}

function qualityCsv(report: QualityReport): string {
  return csv(
    ['affiliate', 'screened', 'passed', 'flagged', 'blocked', 'flagged_or_blocked_rate', 'findings'],
    report.rows.map((r) => [
      r.affiliate,
      r.screened,
      r.passed,
      r.flagged,
      r.blocked,
      r.flaggedOrBlockedRate.toFixed(4),
      r.findings.map((f) => `${f.reason}:${f.leads}`).join(' '),
    ]),
  );
}

/** One report route: `/admin/reports/{name}`, its documentation, its response schema, its query and its CSV. */
interface ReportRoute<Report> {
  name: string;
  summary: string;
  description: string;
  schema: z.ZodType<Report>;
  read: (db: Kysely<Database>, query: ReportQuery, timeZone: string) => Promise<Report>;
  csv: (report: Report) => string;
}

/** Keeps each entry's report type whole while the table holds entries of different reports. */
function report<Report>(route: ReportRoute<Report>): ReportRoute<unknown> {
  return route as ReportRoute<unknown>;
}

const REPORTS: ReadonlyArray<ReportRoute<unknown>> = [
  report({
    name: 'funnel',
    summary: 'The funnel: leads reaching and completing each step, drop-off, and outcomes',
    description:
      'Over the leads created between `from` and `to` (calendar days in the business time zone, `to` ' +
      'included, at most 366 days), optionally for one affiliate, `utm_source` or source. `format=csv` ' +
      'answers the step table as CSV.',
    schema: FunnelReportSchema,
    read: funnelReport,
    csv: funnelCsv,
  }),
  report({
    name: 'sales',
    summary: 'Sales by affiliate and day: submitted, sold rate, median and p90 time to decision',
    description:
      'Rows ordered by day, then affiliate (null: leads without one). Same filters as the funnel report; ' +
      '`format=csv` answers CSV.',
    schema: SalesReportSchema,
    read: salesReport,
    csv: salesCsv,
  }),
  report({
    name: 'buyers',
    summary: 'Sales by buyer: attempts, accept rate, gross revenue, returns, net revenue and conversions',
    description:
      'Over the waterfall attempts of the leads created in the range, one row per buyer, by net revenue. ' +
      '`attempts` leaves out attempts a full cap kept from the buyer (`capped`). Returns and conversions ' +
      'count against the sale’s lead, whenever they came; `netRevenue` is `revenue` less approved returns. ' +
      'Same filters as the funnel report; `format=csv` answers CSV.',
    schema: BuyerSalesReportSchema,
    read: buyerSalesReport,
    csv: buyersCsv,
  }),
  report({
    name: 'affiliates',
    summary: 'Sales by affiliate: gross revenue, returns, net revenue, conversions and payouts reversed',
    description:
      'Over the sold leads created in the range, one row per affiliate (null: leads without one), by net ' +
      'revenue. `payoutsReversed`: the affiliate’s payouts taken back after approved returns. Same filters ' +
      'as the funnel report; `format=csv` answers CSV.',
    schema: AffiliateRevenueReportSchema,
    read: affiliateRevenueReport,
    csv: affiliatesCsv,
  }),
  report({
    name: 'quality',
    summary:
      'Lead quality by affiliate: what screening passed, flagged and blocked, and returns by score band',
    description:
      'Over the screened leads created in the range (issue 41, ADR 0030): one row per affiliate (null: leads ' +
      'without one), most flagged or blocked first, with each finding and how many of its leads had it; and ' +
      '`bands`, the sold leads of each screening band (A: score 90–100, B: 70–89, C: 50–69, D: below) with ' +
      'their approved returns. Same filters as the funnel report; `format=csv` answers the affiliate rows.',
    schema: QualityReportSchema,
    read: qualityReport,
    csv: qualityCsv,
  }),
];

/** What a report's audit entry keeps of its query. */
const REPORT_FILTERS = ['from', 'to', 'affiliate', 'utmSource', 'source'];

/** Operator reports over the system of record: the funnel, sales by affiliate and day, by buyer, revenue by affiliate and lead quality; JSON or CSV. */
const reportRoutes: FastifyPluginAsyncZod<ReportRoutesOptions> = async (app, options) => {
  app.get(
    '/admin/reports/dashboard',
    operatorRoute(
      'viewer',
      'reports.read',
      {
        summary: 'The console dashboard: the funnel, sales, sales by buyer and revenue by affiliate at once',
        description:
          'The five reports below over the same filters, in one answer and one audit entry (its details name ' +
          'the reports). JSON only: each report downloads as CSV on its own route.',
        querystring: ReportQuerySchema,
        response: { 200: ReportsDashboardSchema, 400: ApiErrorSchema, 503: ApiErrorSchema },
      },
      (request) => ({
        reports: REPORTS.map(({ name }) => name),
        ...auditedFields(request, REPORT_FILTERS),
      }),
    ),
    async (request) => {
      const reports = await readSystemOfRecord(options.db, 'The reports', request.log, (db) =>
        Promise.all(REPORTS.map(({ read }) => read(db, request.query, options.timeZone))),
      );
      return Object.fromEntries(REPORTS.map(({ name }, index) => [name, reports[index]])) as ReportsDashboard;
    },
  );

  for (const { name, summary, description, schema, read, csv: toCsv } of REPORTS) {
    app.get(
      `/admin/reports/${name}`,
      operatorRoute(
        'viewer',
        'reports.read',
        {
          summary,
          description,
          querystring: ReportQuerySchema,
          response: { 200: schema, 400: ApiErrorSchema, 503: ApiErrorSchema },
        },
        [...REPORT_FILTERS, 'format'],
      ),
      async (request, reply) => {
        const report = await readSystemOfRecord(options.db, 'The reports', request.log, (db) =>
          read(db, request.query, options.timeZone),
        );
        const { from, to } = request.query;
        return request.query.format === 'csv'
          ? sendCsv(reply, `${name}-${from}-${to}.csv`, toCsv(report))
          : report;
      },
    );
  }
};

export default reportRoutes;
