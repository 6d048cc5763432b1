/**
 * What a borrower did on the prerendered page before React took it over (docs/adr/0019-html-first-borrower-screens.md):
 * values typed or chosen, and a press of Next that public/early-input.js held back. React hydrates the fields
 * with the form's own (empty) state, so each is given back to the app as if typed now, and the press is made once.
 */
import { markHydrated } from '@/lib/hydration';

declare global {
  interface Window {
    /** Set by main.tsx as hydration starts: React holds presses from then on. */
    __appStarted?: boolean;
    /** The form whose submission public/early-input.js held back. */
    __earlySubmit?: HTMLFormElement;
  }
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

interface Typed {
  control: Control;
  value: string;
  checked: boolean;
}

let typed: Typed[] = [];

function changedByVisitor(control: Control): boolean {
  if (control instanceof HTMLSelectElement)
    return [...control.options].some((o) => o.selected !== o.defaultSelected);
  if (control instanceof HTMLInputElement && (control.type === 'radio' || control.type === 'checkbox'))
    return control.checked !== control.defaultChecked;
  return control.value !== control.defaultValue;
}

/** Notes every field the visitor changed under `root`; called right before hydration starts. */
export function captureEarlyInput(root: HTMLElement): void {
  window.__appStarted = true;
  typed = [...root.querySelectorAll<Control>('input, select, textarea')]
    .filter(changedByVisitor)
    .map((control) => ({ control, value: control.value, checked: 'checked' in control && control.checked }));
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

/** Gives the hydrated app what was typed before, then makes the press of Next that was held. Runs once. */
export function replayEarlyInput(): void {
  markHydrated();
  const held = window.__earlySubmit;
  window.__earlySubmit = undefined;
  for (const { control, value, checked } of typed) {
    if (!control.isConnected) continue;
    if (control instanceof HTMLInputElement && (control.type === 'radio' || control.type === 'checkbox')) {
      if (!checked) continue;
      control.checked = false;
      control.click();
    } else {
      setValue(control, value);
    }
  }
  typed = [];
  if (held?.isConnected) held.requestSubmit();
}
