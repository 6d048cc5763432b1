import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { FieldShell, controlAria, splitShellProps } from './field-shell';
import styles from './field.module.css';

export interface TextFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'id' | 'children'
> {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  /** Shown under the control (a looked-up city, a bank name); announced politely as it changes. */
  status?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled text input with its hint and error wired up for assistive technology. */
export function TextField({ value, onValueChange, ref, ...props }: TextFieldProps) {
  const { shell, control: input } = splitShellProps(props);
  return (
    <FieldShell {...shell} withStatus>
      <input
        ref={ref}
        id={shell.id}
        className={styles.input}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        {...controlAria(shell.id, shell)}
        {...input}
      />
    </FieldShell>
  );
}
