/** Spec §8: what a visitor reads when a request fails for a reason they cannot fix (network, server). */
export const GENERIC_ERROR = 'An error occurred. Please try again.';
