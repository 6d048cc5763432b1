import { lazy, Suspense, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeading } from '@/components/ui/page-heading';
import { PageLoader } from '@/components/ui/page-loader';
import { useDashboard } from '../api/get-dashboard';
import {
  filtersFromSearch,
  filtersToSearch,
  reportPath,
  type ReportFilters,
  type ReportName,
} from '../utils/report-filters';
import { AffiliatesTable } from './affiliates-table';
import { BuyersTable } from './buyers-table';
import { FunnelOutcomes, FunnelTable, OutcomeReasons } from './funnel-table';
import { QualityTables } from './quality-tables';
import { ReportFiltersForm } from './report-filters-form';
import { SalesTable } from './sales-table';
import styles from './operator.module.css';

// The chart library downloads only once there is a funnel to draw.
const FunnelChart = lazy(() => import('./funnel-chart'));

function LoadFailed({ error }: { error: Error }) {
  return (
    <p className={styles.failed} role="alert">
      {error.message || 'The report could not be loaded. Please try again.'}
    </p>
  );
}

function CsvLink({ report, filters, label }: { report: ReportName; filters: ReportFilters; label: string }) {
  return (
    <a className={styles.download} href={`/api/v1${reportPath(report, filters, 'csv')}`} download>
      {label}
    </a>
  );
}

interface ReportSectionProps<T> {
  report: ReportName;
  title: string;
  filters: ReportFilters;
  query: { data: T | undefined; error: Error | null; isFetching: boolean };
  /** What the loader says until the first answer. */
  loading: string;
  children: (report: T) => ReactNode;
}

/** One report: its heading and CSV link, then the report once loaded (the previous one while a new one loads). */
function ReportSection<T>({ report, title, filters, query, loading, children }: ReportSectionProps<T>) {
  const headingId = `${report}-heading`;
  return (
    <section className={styles.section} aria-labelledby={headingId} aria-busy={query.isFetching}>
      <div className={styles.sectionHead}>
        <h2 id={headingId}>{title}</h2>
        <CsvLink report={report} filters={filters} label={`Download ${report} CSV`} />
      </div>
      {query.data ? (
        children(query.data)
      ) : query.error ? (
        <LoadFailed error={query.error} />
      ) : (
        <PageLoader message={loading} />
      )}
    </section>
  );
}

/** The reports over the filters in the page's address. */
export function ReportsDashboard() {
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  const dashboard = useDashboard(filters);
  const section = <R extends ReportName>(report: R) => ({
    data: dashboard.data?.[report],
    error: dashboard.error,
    isFetching: dashboard.isFetching,
  });
  const funnel = section('funnel');
  const sales = section('sales');
  const buyers = section('buyers');
  const affiliates = section('affiliates');
  const quality = section('quality');

  return (
    <>
      <PageHeading documentTitle="Operator reports" className={styles.title}>
        Funnel and sales reports
      </PageHeading>
      <ReportFiltersForm
        // A new address (Back, a shared link) resets the form to what is shown.
        key={search.toString()}
        filters={filters}
        onApply={(next) => setSearch(filtersToSearch(next))}
      />

      <ReportSection
        report="funnel"
        title="Funnel"
        filters={filters}
        query={funnel}
        loading="Loading the funnel…"
      >
        {(report) => (
          <>
            <FunnelOutcomes outcomes={report.outcomes} />
            <OutcomeReasons reasons={report.outcomeReasons} />
            <Suspense fallback={<PageLoader message="Loading the chart…" />}>
              <FunnelChart steps={report.steps} />
            </Suspense>
            <FunnelTable steps={report.steps} />
          </>
        )}
      </ReportSection>

      <ReportSection report="sales" title="Sales" filters={filters} query={sales} loading="Loading sales…">
        {(report) => <SalesTable rows={report.rows} />}
      </ReportSection>

      <ReportSection
        report="buyers"
        title="Buyers"
        filters={filters}
        query={buyers}
        loading="Loading sales by buyer…"
      >
        {(report) => <BuyersTable rows={report.rows} />}
      </ReportSection>

      <ReportSection
        report="affiliates"
        title="Affiliates"
        filters={filters}
        query={affiliates}
        loading="Loading revenue by affiliate…"
      >
        {(report) => <AffiliatesTable rows={report.rows} />}
      </ReportSection>

      <ReportSection
        report="quality"
        title="Lead quality"
        filters={filters}
        query={quality}
        loading="Loading lead quality…"
      >
        {(report) => <QualityTables report={report} />}
      </ReportSection>
    </>
  );
}
