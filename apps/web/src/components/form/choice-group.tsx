import type { Option } from '@funnel/contracts/options';
import { FieldError } from './field-error';
import { describedBy, fieldIds } from './field-ids';
import styles from './field.module.css';

interface ChoiceGroupProps<V extends string | number> {
  /** The radio inputs' name; also the base of the error's id. */
  name: string;
  /** The id of the element that asks the question (the screen's h1). */
  labelledBy: string;
  options: readonly Option<V>[];
  value: V | undefined;
  onChange: (value: V) => void;
  error?: string;
  columns?: 1 | 2;
}

/** One answer out of a few, as large tappable radio cards. Arrow keys move between them (native radios). */
export function ChoiceGroup<V extends string | number>({
  name,
  labelledBy,
  options,
  value,
  onChange,
  error,
  columns = 1,
}: ChoiceGroupProps<V>) {
  const ids = fieldIds(name);
  return (
    <div
      id={name}
      role="radiogroup"
      aria-labelledby={labelledBy}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(error && ids.error)}
      className={styles.choiceGroup}
    >
      <div className={`${styles.choices} ${columns === 2 ? styles.twoColumns : ''}`}>
        {options.map((option) => {
          const id = `${name}-${option.value}`;
          return (
            <label key={option.value} htmlFor={id} className={styles.choice}>
              <input
                id={id}
                type="radio"
                name={name}
                value={String(option.value)}
                checked={value === option.value}
                onChange={() => onChange(option.value)}
                className={styles.radio}
              />
              <span>{option.label}</span>
            </label>
          );
        })}
      </div>
      <FieldError id={ids.error} message={error} />
    </div>
  );
}
