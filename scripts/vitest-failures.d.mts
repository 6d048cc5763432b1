export function vitestFailures(reportFile: string, root?: string): string[];
export function errorsOutsideTests(logFile: string): string[];
