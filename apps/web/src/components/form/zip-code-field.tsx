import type { ZipPlace } from '@funnel/contracts/api';
import { ZIP_CODE_NOT_FOUND } from '@funnel/contracts/messages';
import { TextField } from './text-field';

interface ZipCodeFieldProps {
  id: string;
  value: string;
  onValueChange: (zip: string) => void;
  /** The looked-up place of the current ZIP code, shown under the field. */
  place: ZipPlace | undefined;
  /** The lookup knows no such ZIP code: shown as the field's error when it has no other. */
  notFound?: boolean;
  error?: string | undefined;
}

const ZIP_LENGTH = 5;

/**
 * ZIP code: digits only, at most five (spec §5). A new value drops the old place at once, because the parent's
 * lookup is keyed on the ZIP itself.
 */
export function ZipCodeField({
  id,
  value,
  onValueChange,
  place,
  notFound = false,
  error: fieldError,
}: ZipCodeFieldProps) {
  const error = fieldError ?? (notFound ? ZIP_CODE_NOT_FOUND : undefined);
  return (
    <TextField
      id={id}
      label="ZIP code"
      value={value}
      onValueChange={(text) => onValueChange(text.replace(/\D/g, '').slice(0, ZIP_LENGTH))}
      inputMode="numeric"
      autoComplete="postal-code"
      error={error}
      status={place && !error ? `${place.city}, ${place.state}` : undefined}
    />
  );
}
