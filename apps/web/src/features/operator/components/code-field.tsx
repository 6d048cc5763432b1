import { TextField } from '@/components/form/text-field';

/**
 * The 6-digit code of an authenticator app (TOTP), offered by phones' one-time-code autofill; with
 * `recovery`, one of the ten recovery codes is taken too (letters and dashes).
 */
export function CodeField({
  recovery = false,
  ...props
}: {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error: string | undefined;
  hint?: string;
  recovery?: boolean;
}) {
  return recovery ? (
    <TextField
      autoComplete="one-time-code"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={19}
      {...props}
    />
  ) : (
    <TextField inputMode="numeric" autoComplete="one-time-code" maxLength={6} {...props} />
  );
}
