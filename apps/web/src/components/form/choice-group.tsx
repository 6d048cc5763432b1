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
  /**
   * A tap or click on an answer (also on the one already chosen): the answer is final, as on a one-question form.
   * Arrow keys and Space only move the selection (`onChange`), so keyboard users confirm with Enter or Next.
   */
  onPick?: (value: V) => void;
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
  onPick,
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
            <label
              key={option.value}
              htmlFor={id}
              className={styles.choice}
              // A pointer's click has a count (detail ≥ 1); the clicks browsers fire for arrow keys, Space and
              // the label's forwarded click on its radio have none.
              onClick={(event) => {
                if (event.detail > 0) onPick?.(option.value);
              }}
            >
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
