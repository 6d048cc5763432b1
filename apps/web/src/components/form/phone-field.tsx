import { formatPhoneMask } from '@/lib/phone-mask';
import { TextField, type TextFieldProps } from './text-field';

/** A US phone number typed into the mask (999) 999-9999, with the phone keypad on mobile. */
export function PhoneField({ onValueChange, ...props }: TextFieldProps) {
  return (
    <TextField
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      placeholder="(555) 555-5555"
      {...props}
      onValueChange={(text) => onValueChange(formatPhoneMask(text))}
    />
  );
}
