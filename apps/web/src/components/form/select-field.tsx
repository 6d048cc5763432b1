import type { Option } from '@funnel/contracts/options';
import type { Ref, SelectHTMLAttributes } from 'react';
import { FieldShell, controlAria } from './field-shell';
import styles from './field.module.css';

interface SelectFieldProps extends Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  'value' | 'onChange' | 'id' | 'children'
> {
  id: string;
  label: string;
  options: readonly Option[];
  /** '' while nothing is chosen. */
  value: string;
  onValueChange: (value: string) => void;
  /** The empty first choice; without it the first option is preselected. */
  placeholder?: string;
  error?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled native select: the most robust picker on phones and with screen readers. */
export function SelectField({
  id,
  label,
  options,
  value,
  onValueChange,
  placeholder,
  error,
  ref,
  ...select
}: SelectFieldProps) {
  return (
    <FieldShell id={id} label={label} error={error}>
      <select
        ref={ref}
        id={id}
        className={`${styles.input} ${styles.select}`}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        {...controlAria(id, { error })}
        {...select}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}
