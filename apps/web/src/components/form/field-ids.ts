/** The ids that tie a control to its hint and error, so `aria-describedby` always points at what is shown. */
export function fieldIds(id: string) {
  return { hint: `${id}-hint`, error: `${id}-error` };
}

/**
 * `aria-describedby` from the descriptions that are present; call it as `describedBy(hint && ids.hint)`, so
 * anything but a non-empty id string is left out.
 */
export function describedBy(...ids: unknown[]): string | undefined {
  const present = ids.filter((id): id is string => typeof id === 'string' && id.length > 0);
  return present.length > 0 ? present.join(' ') : undefined;
}
