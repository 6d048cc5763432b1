import { readFileSync } from 'node:fs';
import type * as z from 'zod';

export interface ParseEnvOptions {
  /**
   * Settings that may also be given as a file: `NAME_FILE` names a file holding the value (a Docker or Kubernetes
   * secret mounted read-only), so a secret never has to sit in the process's environment or a shared env file.
   * One trailing newline is dropped. Setting both `NAME` and `NAME_FILE` is refused.
   */
  fromFiles?: readonly string[];
}

/**
 * Parses an app's environment with its schema. An empty variable means "not set" (compose passes unset
 * variables through as empty strings). Fails with one error listing every bad key, so an operator fixes them
 * all at once.
 */
export function parseEnv<T extends z.ZodType>(
  schema: T,
  source: NodeJS.ProcessEnv,
  { fromFiles = [] }: ParseEnvOptions = {},
): z.output<T> {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const problems: string[] = [];
  for (const name of fromFiles) {
    const file = present[`${name}_FILE`];
    if (file === undefined) continue;
    delete present[`${name}_FILE`];
    if (present[name] !== undefined) {
      problems.push(`  ${name}: set ${name} or ${name}_FILE, not both`);
      continue;
    }
    try {
      present[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(
        `  ${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    problems.push(
      ...parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`),
    );
  }
  if (problems.length > 0 || !parsed.success)
    throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  return parsed.data;
}
