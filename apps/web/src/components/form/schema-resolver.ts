// The form engine's validation (`useSchemaForm`): a react-hook-form resolver over a contracts schema. Apart from
// use-schema-form.ts because it brings zod and @hookform/resolvers: a form on the first screen loads it when it is
// first submitted (docs/adr/0019-html-first-borrower-screens.md), every other screen imports it.
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors as FormFieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type * as z from 'zod';

/** Messages by field name, as the contracts' rules and the BFF's `{ error: { fields } }` give them. */
export type FieldMessages = Readonly<Record<string, string>>;

/** What `toInput` answers when the values cannot even be turned into the schema's input. */
export class FieldRejection {
  constructor(readonly fields: FieldMessages) {}
}

interface SchemaResolverOptions<V extends FieldValues, I> {
  /** The values as the controls hold them turned into the schema's input (a select's '1500' into 1500). */
  toInput?: (values: V) => I | FieldRejection | Promise<I | FieldRejection>;
  /** Rules the schema alone cannot decide (the step's cross-field rules), run once the schema passed. */
  check?: (output: unknown) => FieldMessages;
}

function toFormErrors<V extends FieldValues>(fields: FieldMessages): FormFieldErrors<V> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, message]) => [name, { type: 'rule', message }]),
  ) as FormFieldErrors<V>;
}

/**
 * A react-hook-form resolver over a contracts schema (through `@hookform/resolvers/zod`), so the browser refuses
 * the same input with the same messages the BFF would. Its output is what gets sent.
 */
export function schemaResolver<V extends FieldValues, I = V>(
  schema: z.ZodType,
  { toInput, check }: SchemaResolverOptions<V, I> = {},
): Resolver<V, unknown, FieldValues> {
  const parse = zodResolver(schema as z.ZodType<FieldValues, FieldValues>);
  return async (values, context, options) => {
    const input = toInput ? await toInput(values) : values;
    if (input instanceof FieldRejection) return { values: {}, errors: toFormErrors<V>(input.fields) };
    const result = await parse(input as FieldValues, context, options as never);
    if (Object.keys(result.errors).length > 0 || !check) return result as never;
    const broken = check(result.values);
    return Object.keys(broken).length > 0
      ? { values: {}, errors: toFormErrors<V>(broken) }
      : (result as never);
  };
}
