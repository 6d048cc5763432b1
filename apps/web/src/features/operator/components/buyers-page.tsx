import { useSearchParams } from 'react-router';
import { PageHeading } from '@/components/ui/page-heading';
import { PageLoader } from '@/components/ui/page-loader';
import { Button } from '@/components/ui/button';
import {
  useBuyerHealth,
  useBuyers,
  useBuyerVersions,
  useImportBuyersFile,
  usePauseBuyer,
} from '../api/buyers';
import { useReport } from '../api/get-report';
import { filtersFromSearch, filtersToSearch } from '../utils/report-filters';
import { workersText } from '../utils/workers-text';
import { BuyerEditor } from './buyer-editor';
import { BuyerHealthTable } from './buyer-health-table';
import { BuyersTable } from './buyers-table';
import { ReportFiltersForm } from './report-filters-form';
import { ReportTable } from './report-table';
import { messageOf } from './sign-in-form';
import styles from './operator.module.css';

/**
 * `/operator/buyers` (manager and admin; ADR 0022): each buyer's health over the last 15 minutes with its pause
 * and resume, the editor of a buyer's settings, the versions of the buyers document (who changed what, when),
 * and the buyers report over a date range.
 */
export default function BuyersPage() {
  const buyers = useBuyers();
  const health = useBuyerHealth();
  const versions = useBuyerVersions();
  const pause = usePauseBuyer();
  const importFile = useImportBuyersFile();
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search);
  const report = useReport('buyers', filters);
  const failure = buyers.error ?? pause.error ?? importFile.error;

  return (
    <>
      <PageHeading id="operator-buyers" documentTitle="Buyers">
        Buyers
      </PageHeading>
      {failure && (
        <p className={styles.failed} role="alert">
          {messageOf(failure)}
        </p>
      )}
      {buyers.data && (
        <p role="status">
          Version {buyers.data.version}, by {buyers.data.actor} at {new Date(buyers.data.at).toLocaleString()}
          {health.data && ` · ${workersText(health.data.workers)}`}
        </p>
      )}
      <section className={styles.section} aria-labelledby="buyer-health-heading">
        <h2 id="buyer-health-heading">Health</h2>
        {health.data ? (
          <BuyerHealthTable
            rows={health.data.buyers}
            busy={pause.isPending ? pause.variables?.buyerId : undefined}
            onPause={(buyerId, paused) => pause.mutate({ buyerId, pause: paused })}
          />
        ) : (
          <PageLoader message="Loading the buyers’ health…" />
        )}
      </section>
      {buyers.data && <BuyerEditor buyers={buyers.data.buyers} version={buyers.data.version} />}
      <section className={styles.section} aria-labelledby="buyer-versions-heading">
        <h2 id="buyer-versions-heading">Versions</h2>
        <p className={styles.actions}>
          {/* The buyers file's format, credentials left out: the session cookie goes with the download. */}
          <a href="/api/v1/admin/buyers/export" download="buyers.json">
            Download the buyers file
          </a>{' '}
          <Button
            variant="secondary"
            busy={importFile.isPending}
            busyLabel="Importing…"
            onClick={() => importFile.mutate(undefined)}
          >
            Import BUYERS_FILE again
          </Button>
        </p>
        {versions.data && (
          <ReportTable
            id="buyer-versions"
            caption="Who changed the buyers, and when"
            columns={[
              { label: 'Version', cell: (v) => v.version },
              { label: 'When', cell: (v) => new Date(v.at).toLocaleString(), text: true },
              { label: 'Who', cell: (v) => v.actor, text: true },
              { label: 'What', cell: (v) => v.summary, text: true },
            ]}
            rows={versions.data.versions}
            rowKey={(v) => String(v.version)}
            oneColumn
          />
        )}
      </section>
      <section className={styles.section} aria-labelledby="buyer-report-heading">
        <h2 id="buyer-report-heading">Buyers report</h2>
        <ReportFiltersForm
          key={search.toString()}
          filters={filters}
          onApply={(next) => setSearch(filtersToSearch(next))}
        />
        {report.data ? (
          <BuyersTable rows={report.data.rows} />
        ) : (
          <PageLoader message="Loading sales by buyer…" />
        )}
      </section>
    </>
  );
}
