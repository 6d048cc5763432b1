import { describe, expect, it } from 'vitest';
import { fieldErrors } from '@funnel/contracts/errors';
import { getStep } from '@funnel/contracts/steps';
import { FieldRejection, schemaResolver } from './schema-resolver';

/** What react-hook-form passes a resolver: no native validation, no field refs. */
const OPTIONS = { fields: {}, shouldUseNativeValidation: false };

/** The resolver's messages by field, as the screens show them. */
function messages(errors: Record<string, { message?: unknown } | undefined>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(errors).map(([name, error]) => [name, error?.message]));
}

describe('schemaResolver', () => {
  const driverid = getStep('driverid').schema;

  it("refuses with the contracts' messages, the same the BFF's fieldErrors gives", async () => {
    const input = { licenseID: '', issuingState: 'Atlantis' };
    const result = await schemaResolver(driverid)(input, undefined, OPTIONS);
    expect(messages(result.errors)).toEqual(fieldErrors(driverid.safeParse(input).error!));
    expect(Object.keys(result.errors)).toEqual(['licenseID', 'issuingState']);
  });

  it("answers the schema's output: what gets saved", async () => {
    const result = await schemaResolver(driverid)(
      { licenseID: 'D1234567', issuingState: 'new york' },
      undefined,
      OPTIONS,
    );
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ licenseID: 'D1234567', issuingState: 'NY' });
  });

  it('turns the values into the schema input first, and a FieldRejection stops there', async () => {
    const resolver = schemaResolver<{ id: string; state: string }, unknown>(driverid, {
      toInput: ({ id, state }) =>
        id === 'none'
          ? new FieldRejection({ licenseID: 'Not on file' })
          : { licenseID: id, issuingState: state },
    });
    const rejected = await resolver({ id: 'none', state: '' }, undefined, OPTIONS);
    expect(messages(rejected.errors)).toEqual({ licenseID: 'Not on file' });
    const accepted = await resolver({ id: 'D1234567', state: 'CA' }, undefined, OPTIONS);
    expect(accepted.values).toEqual({ licenseID: 'D1234567', issuingState: 'CA' });
  });

  it('runs the cross-field check only once the schema passed', async () => {
    const checked: unknown[] = [];
    const resolver = schemaResolver(driverid, {
      check: (output) => {
        checked.push(output);
        return { issuingState: 'Not this one' };
      },
    });
    await resolver({ licenseID: '', issuingState: 'CA' }, undefined, OPTIONS);
    expect(checked).toEqual([]);
    const result = await resolver({ licenseID: 'D1234567', issuingState: 'CA' }, undefined, OPTIONS);
    expect(checked).toEqual([{ licenseID: 'D1234567', issuingState: 'CA' }]);
    expect(messages(result.errors)).toEqual({ issuingState: 'Not this one' });
  });
});
