import { useState, type KeyboardEvent } from 'react';
import { FieldError } from './field-error';
import { describedBy, fieldIds } from './field-ids';
import type { TextFieldProps } from './text-field';
import styles from './field.module.css';

interface ComboboxProps extends TextFieldProps {
  /** What the list offers for the current text; choosing one puts it in the field. */
  suggestions: readonly string[];
}

/**
 * A text field with a list of suggestions (ARIA 1.2 combobox with a listbox popup). Typing stays free: a
 * suggestion is only a shortcut. Arrow keys move through the list, Enter takes the highlighted one (and does not
 * submit the form), Esc closes the list.
 */
export function Combobox({
  id,
  label,
  value,
  onValueChange,
  error,
  hint,
  status,
  suggestions,
  ref,
  onKeyDown,
  onBlur,
  ...input
}: ComboboxProps) {
  const ids = fieldIds(id);
  const listId = `${id}-listbox`;
  const [open, setOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(-1);
  const options = suggestions.filter((suggestion) => suggestion.toLowerCase() !== value.trim().toLowerCase());
  const expanded = open && options.length > 0;
  const active = expanded && activeIndex < options.length ? activeIndex : -1;
  const optionId = (index: number) => `${id}-option-${index}`;

  function choose(suggestion: string) {
    onValueChange(suggestion);
    setOpen(false);
    setActiveIndex(-1);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    onKeyDown?.(event);
    if (event.defaultPrevented) return;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!expanded) {
          setOpen(true);
          return;
        }
        // Positions run -1 (the text itself) through the last option, and wrap around.
        const positions = options.length + 1;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActiveIndex(((active + 1 + step + positions) % positions) - 1);
        return;
      }
      case 'Enter': {
        const chosen = active >= 0 ? options[active] : undefined;
        if (chosen !== undefined) {
          event.preventDefault();
          choose(chosen);
        }
        return;
      }
      case 'Escape':
        // Closed even while suggestions are still on their way, so they do not pop up after the visitor said no.
        if (expanded) event.preventDefault();
        setOpen(false);
        return;
      default:
    }
  }

  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {hint && (
        <p id={ids.hint} className={styles.hint}>
          {hint}
        </p>
      )}
      <div className={styles.comboWrapper}>
        <input
          ref={ref}
          id={id}
          className={styles.input}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={active >= 0 ? optionId(active) : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(hint && ids.hint, error && ids.error)}
          value={value}
          onChange={(event) => {
            onValueChange(event.target.value);
            setOpen(true);
            setActiveIndex(-1);
          }}
          onKeyDown={handleKeyDown}
          onBlur={(event) => {
            setOpen(false);
            onBlur?.(event);
          }}
          {...input}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={`${label} suggestions`}
          className={styles.listbox}
          hidden={!expanded}
        >
          {options.map((suggestion, index) => (
            <li
              key={suggestion}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              className={styles.option}
              // mousedown, not click: the input must keep focus, or its blur would close the list first.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(suggestion);
              }}
            >
              {suggestion}
            </li>
          ))}
        </ul>
      </div>
      <FieldError id={ids.error} message={error} />
      <div className={styles.status} aria-live="polite">
        {status}
      </div>
    </div>
  );
}
