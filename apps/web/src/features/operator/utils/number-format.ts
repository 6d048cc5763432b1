const count = new Intl.NumberFormat('en-US');
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export const formatCount = (value: number): string => count.format(value);
export const formatRate = (value: number): string => percent.format(value);
/** Seconds to a decision; '—' when no lead of the row was decided. */
export const formatSeconds = (value: number | null): string =>
  value === null ? '—' : `${count.format(Math.round(value))} s`;
/** US dollars to the cent; '—' when there is no amount (no lead of the row was sold). */
export const formatMoney = (value: number | null): string => (value === null ? '—' : dollars.format(value));
