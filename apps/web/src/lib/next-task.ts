/**
 * Resolves in a task of its own, after the browser has had the chance to run anything waiting (a key, a paint).
 * Work split with it between steps runs as several short tasks instead of one long one: a long task delays
 * whatever the visitor does meanwhile (Total Blocking Time, docs/adr/0019-html-first-borrower-screens.md).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}
