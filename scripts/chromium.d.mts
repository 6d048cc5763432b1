// Types for chromium.mjs, for the TypeScript that imports it (the e2e harness, the Lighthouse benchmark).
export const INSTALL_CHROMIUM: string;
export function findChromium(
  env?: NodeJS.ProcessEnv,
): { path: string; problem?: undefined } | { path?: undefined; problem: string };
export function chromiumPath(env?: NodeJS.ProcessEnv): string;
