/**
 * What a borrower did on the prerendered page before React took it over (docs/adr/0019-html-first-borrower-screens.md):
 * values typed or chosen, and a press of Next that public/early-input.js held back. React hydrates a controlled
 * field without touching what it holds, so the field shows what was typed while the form's state is still empty.
 * Right after the first commit each such field is given to the app as if typed now, through its own change
 * handler: the app's masks and formats apply to it as to anything typed later. Then the held press is made once.
 */

declare global {
  interface Window {
    /** Set by main.tsx as hydration starts: React holds presses from then on. */
    __appStarted?: boolean;
    /** The form whose submission public/early-input.js held back. */
    __earlySubmit?: HTMLFormElement;
  }
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isCheckable = (control: Control): control is HTMLInputElement =>
  control instanceof HTMLInputElement && (control.type === 'radio' || control.type === 'checkbox');

/** The option a select shows when the page leaves it alone: the one marked selected, else the first enabled. */
function defaultOption(select: HTMLSelectElement): HTMLOptionElement | undefined {
  const options = [...select.options];
  return options.find((option) => option.defaultSelected) ?? options.find((option) => !option.disabled);
}

/**
 * Whether the visitor changed `control` before the app had it. Read after hydration: hydrating a field sets its
 * default (`defaultValue`, `defaultChecked`) to what the app rendered and leaves its value alone, and a select's
 * options keep the prerendered `selected` marks. So anything typed up to the first commit is caught, including
 * keys pressed while React was hydrating.
 */
function changedByVisitor(control: Control): boolean {
  if (control instanceof HTMLSelectElement) return control.value !== (defaultOption(control)?.value ?? '');
  if (isCheckable(control)) return control.checked !== control.defaultChecked;
  return control.value !== control.defaultValue;
}

/**
 * Sets `value` so React sees a change: React remembers the last value it knew through the element's own `value`
 * property, so that one is set to something else first, then the real value through the prototype's setter.
 */
function setValue(control: Control, value: string) {
  const prototype = Object.getPrototypeOf(control) as object;
  const nativeSetter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  control.value = value === '' ? ' ' : '';
  nativeSetter?.call(control, value);
  control.dispatchEvent(
    new Event(control instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
  );
}

let replayed = false;

/**
 * Gives the hydrated app what was typed before, then makes the press of Next that was held. Runs once, in the
 * effect of the app's first commit (every form below is wired by then, and nothing has re-rendered a field yet:
 * a controlled field's next render would overwrite what the visitor typed with the form's state).
 */
export function replayEarlyInput(root: HTMLElement | null): void {
  if (replayed || !root) return;
  replayed = true;
  const held = window.__earlySubmit;
  window.__earlySubmit = undefined;
  const typed = [...root.querySelectorAll<Control>('input, select, textarea')].filter(changedByVisitor);
  for (const control of typed) {
    if (isCheckable(control)) {
      if (!control.checked) continue;
      control.checked = false;
      control.click();
    } else {
      setValue(control, control.value);
    }
  }
  if (held?.isConnected) held.requestSubmit();
}
