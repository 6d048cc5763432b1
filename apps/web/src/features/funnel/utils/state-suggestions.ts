import { US_STATES } from '@funnel/contracts/options';

const MAX_SUGGESTIONS = 8;

/** States whose name starts with the text, or whose code is the text ('ca', 'new'). */
export function stateSuggestions(text: string): string[] {
  const wanted = text.trim().toLowerCase();
  if (wanted.length === 0) return [];
  return US_STATES.filter(
    (state) => state.label.toLowerCase().startsWith(wanted) || state.value.toLowerCase() === wanted,
  )
    .slice(0, MAX_SUGGESTIONS)
    .map((state) => state.label);
}
