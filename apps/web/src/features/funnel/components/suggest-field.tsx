import type { SuggestField as SuggestFieldName } from '@funnel/contracts/api';
import { Combobox } from '@/components/form/combobox';
import type { TextFieldProps } from '@/components/form/text-field';
import { useSuggestions } from '../api/get-suggestions';

interface SuggestFieldProps extends TextFieldProps {
  /** Which reference list the BFF suggests from. */
  suggest: SuggestFieldName;
}

/** A text field offering names, job titles or employers from the BFF's reference data as the visitor types. */
export function SuggestField({ suggest, value, ...props }: SuggestFieldProps) {
  const suggestions = useSuggestions(suggest, value);
  return <Combobox value={value} suggestions={suggestions} {...props} />;
}
