export function buildWithProgress(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  say: (line: string) => void;
  filter?: string;
}): Promise<boolean>;
export function choosePorts(
  env: Record<string, string | undefined>,
  ports: { name: string; preferred: number; what: string }[],
  say: (line: string) => void,
): Promise<{ secondCopy: boolean }>;
export function portIsFree(port: number): Promise<boolean>;
export function anyFreePort(): Promise<number>;
export function waitUntilReady(
  urls: string[],
  options?: { timeoutMs?: number; isStopping?: () => boolean },
): Promise<boolean>;
