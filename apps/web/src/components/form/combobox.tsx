import { useCombobox, type UseComboboxState, type UseComboboxStateChangeOptions } from 'downshift';
import { FieldShell, controlAria, splitShellProps } from './field-shell';
import type { TextFieldProps } from './text-field';
import styles from './field.module.css';

interface ComboboxProps extends TextFieldProps {
  /** What the list offers for the current text; choosing one puts it in the field. */
  suggestions: readonly string[];
}

/**
 * Typing stays free: a suggestion is only a shortcut. Esc closes the list and never clears what was typed, and
 * leaving the field never picks the highlighted suggestion for the visitor.
 */
function keepTypedText(
  state: UseComboboxState<string>,
  { type, changes }: UseComboboxStateChangeOptions<string>,
): Partial<UseComboboxState<string>> {
  if (
    type === useCombobox.stateChangeTypes.InputKeyDownEscape ||
    type === useCombobox.stateChangeTypes.InputBlur
  ) {
    return { ...changes, inputValue: state.inputValue, selectedItem: state.selectedItem };
  }
  return changes;
}

/** What the live region says about the list, so a screen reader user knows suggestions are there. */
function countMessage(count: number): string {
  if (count === 0) return '';
  return `${count} ${count === 1 ? 'suggestion' : 'suggestions'} available. Use the up and down arrows to choose.`;
}

/**
 * A text field with a list of suggestions (downshift's `useCombobox`: the ARIA 1.2 combobox with a listbox popup).
 * Arrow keys move through the list and keep the highlighted option in view, Enter takes it (and does not submit
 * the form; while an input method is composing, Enter belongs to it), Esc closes the list; a click or tap takes
 * an option too. The number of suggestions is announced politely.
 */
export function Combobox({
  value,
  onValueChange,
  suggestions,
  ref,
  onKeyDown,
  onBlur,
  ...props
}: ComboboxProps) {
  const { shell, control: input } = splitShellProps(props);
  const { id, label } = shell;
  const options = suggestions.filter((suggestion) => suggestion.toLowerCase() !== value.trim().toLowerCase());
  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps } = useCombobox({
    items: options,
    inputValue: value,
    selectedItem: null,
    itemToString: (item) => item ?? '',
    stateReducer: keepTypedText,
    inputId: id,
    labelId: `${id}-label`,
    menuId: `${id}-listbox`,
    getItemId: (index) => `${id}-option-${index}`,
  });
  const expanded = isOpen && options.length > 0;
  // downshift reports its changes after the render, too late for a controlled input: typed text and a chosen
  // suggestion reach the form in the events themselves, and downshift keeps the list's state.
  const choose = (suggestion: string | undefined) => {
    if (suggestion !== undefined) onValueChange(suggestion);
  };
  const { ref: downshiftRef, ...inputProps } = getInputProps({
    className: styles.input,
    onChange: (event) => onValueChange(event.currentTarget.value),
    onBlur,
    onKeyDown: (event) => {
      onKeyDown?.(event);
      if (event.key !== 'Enter') return;
      const native = event.nativeEvent as KeyboardEvent & { preventDownshiftDefault?: boolean };
      // Enter confirms an input method's composition, and with nothing highlighted it submits the form.
      if (native.isComposing || !expanded || highlightedIndex < 0) {
        native.preventDownshiftDefault = true;
      } else {
        choose(options[highlightedIndex]);
      }
    },
    'aria-expanded': expanded,
    ...controlAria(id, shell),
    ...input,
  });

  return (
    <FieldShell
      {...shell}
      labelProps={getLabelProps({ className: styles.label })}
      withStatus
      after={
        <div className="visually-hidden" aria-live="polite">
          {expanded ? countMessage(options.length) : ''}
        </div>
      }
    >
      <div className={styles.comboWrapper}>
        <input
          {...inputProps}
          ref={(node) => {
            // downshift's getter always hands back a ref callback (its own merged with any passed in).
            (downshiftRef as (element: HTMLInputElement | null) => void)(node);
            if (typeof ref === 'function') ref(node);
            else if (ref) ref.current = node;
          }}
        />
        <ul
          {...getMenuProps({ className: styles.listbox, 'aria-label': `${label} suggestions` })}
          hidden={!expanded}
        >
          {expanded &&
            options.map((suggestion, index) => (
              <li
                key={suggestion}
                className={styles.option}
                {...getItemProps({ item: suggestion, index, onClick: () => choose(suggestion) })}
              >
                {suggestion}
              </li>
            ))}
        </ul>
      </div>
    </FieldShell>
  );
}
