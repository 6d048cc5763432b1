import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { FormField } from '@/components/form/form-field';
import { PhoneField } from '@/components/form/phone-field';
import { TextField } from '@/components/form/text-field';

/** Spec §5: the privacy forms' phone input holds at most 14 characters, the mask's full length. */
const PHONE_INPUT_MAX = 14;

interface ContactFieldsProps<V extends { email: string; phone: string }> {
  form: UseFormReturn<V, unknown, FieldValues>;
  /** The form's layout for a pair of fields. */
  className?: string | undefined;
}

/** The email address and phone number a privacy request applies to: the same two fields on both forms. */
export function ContactFields<V extends { email: string; phone: string }>({
  form,
  className,
}: ContactFieldsProps<V>) {
  return (
    <div className={className}>
      <FormField
        form={form}
        name={'email' as Path<V>}
        render={(field) => (
          <TextField {...field} label="Email address" type="email" inputMode="email" autoComplete="email" />
        )}
      />
      <FormField
        form={form}
        name={'phone' as Path<V>}
        render={(field) => <PhoneField {...field} label="Phone number" maxLength={PHONE_INPUT_MAX} />}
      />
    </div>
  );
}
