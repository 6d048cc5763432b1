import { TextField } from '@/components/form/text-field';

/** The 6-digit code of an authenticator app (TOTP), offered by phones' one-time-code autofill. */
export function CodeField(props: {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error: string | undefined;
}) {
  return <TextField inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...props} />;
}
