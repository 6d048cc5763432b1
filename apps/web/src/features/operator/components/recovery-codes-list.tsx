import styles from './operator.module.css';

/**
 * The ten recovery codes, shown once after the second factor is confirmed: the BFF keeps only their hashes, so
 * this is the only time anyone can read them. Never written to browser storage.
 */
export function RecoveryCodesList({ codes }: { codes: readonly string[] }) {
  return (
    <section aria-labelledby="recovery-codes">
      <h3 id="recovery-codes">Your recovery codes</h3>
      <p>
        Save these somewhere safe, apart from your phone (a password manager, or printed). Each one signs you
        in once instead of a code if you lose your phone. They are not shown again.
      </p>
      <ol className={styles.recoveryCodes}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
    </section>
  );
}
