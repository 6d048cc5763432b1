import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { SESSION_EXPIRED } from '@funnel/contracts/messages';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { LEAD_QUERY_KEY } from '@/lib/get-lead';
import styles from './status-screen.module.css';

/**
 * What a funnel or outcome screen shows when the visitor has no live lead (docs/product-rules.md §returning-visitors-and-sessions): the message in the page
 * and a Start over button back to the landing form. The forgotten lead's cached reading goes with it.
 */
export function SessionExpiredScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <div className={`container ${styles.screen}`}>
      <PageHeading documentTitle="Session expired">Session expired</PageHeading>
      <p role="alert">{SESSION_EXPIRED}</p>
      <p>
        <Button
          onClick={() => {
            queryClient.removeQueries({ queryKey: LEAD_QUERY_KEY });
            void navigate('/start', { replace: true });
          }}
        >
          Start over
        </Button>
      </p>
    </div>
  );
}
