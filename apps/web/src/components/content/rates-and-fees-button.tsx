import { useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { RatesAndFees } from './rates-and-fees';
import styles from './content.module.css';

/** An inline "Rates & Fees" link-styled button that opens the disclosure in a popup. */
export function RatesAndFeesButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={styles.inlineButton} onClick={() => setOpen(true)}>
        Rates &amp; Fees
      </button>
      <Dialog open={open} title="Rates & Fees" onClose={() => setOpen(false)} size="large">
        <RatesAndFees />
      </Dialog>
    </>
  );
}
