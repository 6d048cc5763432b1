export interface Stage {
  name: string;
  title: string;
  needs?: string[];
  waitsFor?: string[];
  timeoutSeconds?: number;
  run?: { command: string; args: string[] };
  unable?: () => string | undefined | false;
  after?: (status: number | string | null) => void;
}
export interface StageResult {
  name: string;
  title: string;
  ok: boolean;
  why: string;
  seconds: number;
  cpuSeconds?: number;
}
export function runStages(
  stages: Stage[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logDir: string },
): Promise<StageResult[]>;
export function selectStages<T extends { name: string; needs?: string[] }>(
  stages: T[],
  wanted: string[],
): T[];
