import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeading } from '@/components/ui/page-heading';
import { PageLoader } from '@/components/ui/page-loader';
import { useReport } from '../api/get-report';
import {
  filtersFromSearch,
  filtersToSearch,
  reportPath,
  type ReportFilters,
  type ReportName,
} from '../utils/report-filters';
import { FunnelOutcomes, FunnelTable, OutcomeReasons } from './funnel-table';
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

/** The reports over the filters in the page's address. */
export function ReportsDashboard() {
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  const funnel = useReport('funnel', filters);
  const sales = useReport('sales', filters);

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

      <section className={styles.section} aria-labelledby="funnel-heading" aria-busy={funnel.isFetching}>
        <div className={styles.sectionHead}>
          <h2 id="funnel-heading">Funnel</h2>
          <CsvLink report="funnel" filters={filters} label="Download funnel CSV" />
        </div>
        {funnel.data ? (
          <>
            <FunnelOutcomes outcomes={funnel.data.outcomes} />
            <OutcomeReasons reasons={funnel.data.outcomeReasons} />
            <Suspense fallback={<PageLoader message="Loading the chart…" />}>
              <FunnelChart steps={funnel.data.steps} />
            </Suspense>
            <FunnelTable steps={funnel.data.steps} />
          </>
        ) : funnel.error ? (
          <LoadFailed error={funnel.error} />
        ) : (
          <PageLoader message="Loading the funnel…" />
        )}
      </section>

      <section className={styles.section} aria-labelledby="sales-heading" aria-busy={sales.isFetching}>
        <div className={styles.sectionHead}>
          <h2 id="sales-heading">Sales</h2>
          <CsvLink report="sales" filters={filters} label="Download sales CSV" />
        </div>
        {sales.data ? (
          <SalesTable rows={sales.data.rows} />
        ) : sales.error ? (
          <LoadFailed error={sales.error} />
        ) : (
          <PageLoader message="Loading sales…" />
        )}
      </section>
    </>
  );
}
