import type * as z from 'zod';

/**
 * Parses an app's environment with its schema. An empty variable means "not set" (compose passes unset
 * variables through as empty strings). Fails with one error listing every bad key, so an operator fixes them
 * all at once.
 */
export function parseEnv<T extends z.ZodType>(schema: T, source: NodeJS.ProcessEnv): z.output<T> {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
