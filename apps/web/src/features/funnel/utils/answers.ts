import type { Option } from '@funnel/contracts/options';

/** A saved answer as the text a field shows ('' when there is none). */
export function savedText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}

/** A saved answer if it is one of `options`' values (lists can change between visits). */
export function savedOption<V extends string | number>(
  value: unknown,
  options: readonly Option<V>[],
): V | undefined {
  return options.find((option) => option.value === value)?.value;
}
