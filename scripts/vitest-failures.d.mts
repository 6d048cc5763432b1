export function vitestFailures(reportFile: string, root?: string): string[];
export function errorsOutsideTests(logFile: string): string[];
export function firstLine(message: unknown): string;
