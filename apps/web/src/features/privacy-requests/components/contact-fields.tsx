import { PhoneField } from '@/components/form/phone-field';
import { TextField } from '@/components/form/text-field';

/** Spec §5: the privacy forms' phone input holds at most 14 characters, the mask's full length. */
const PHONE_INPUT_MAX = 14;

interface ContactFieldsProps {
  values: { email: string; phone: string };
  errors: Partial<Record<string, string>>;
  onChange: (field: 'email' | 'phone', value: string) => void;
  /** The form's layout for a pair of fields. */
  className?: string | undefined;
}

/** The email address and phone number a privacy request applies to: the same two fields on both forms. */
export function ContactFields({ values, errors, onChange, className }: ContactFieldsProps) {
  return (
    <div className={className}>
      <TextField
        id="email"
        label="Email address"
        type="email"
        inputMode="email"
        autoComplete="email"
        value={values.email}
        onValueChange={(value) => onChange('email', value)}
        error={errors.email}
      />
      <PhoneField
        id="phone"
        label="Phone number"
        maxLength={PHONE_INPUT_MAX}
        value={values.phone}
        onValueChange={(value) => onChange('phone', value)}
        error={errors.phone}
      />
    </div>
  );
}
