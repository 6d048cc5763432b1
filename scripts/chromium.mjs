// The Chromium (or Google Chrome) that the browser tests and the Lighthouse benchmark drive, found the same way by
// `npm test` (before anything else runs), the e2e harness and the benchmark. Nothing is ever downloaded.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Looked up on the PATH, in this order: Debian's, Ubuntu's, then Google Chrome. */
const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const MAC_APPS = [
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/** The one command that installs it here. */
export const INSTALL_CHROMIUM =
  process.platform === 'darwin' ? 'brew install --cask chromium' : 'sudo apt-get install chromium';

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * `CHROMIUM_PATH` when set (it must be an executable: a wrong one is reported, not replaced); otherwise the first
 * of chromium, chromium-browser, google-chrome, google-chrome-stable on the PATH, then the macOS applications.
 * Resolves to `{ path }`, or `{ problem }`: what is missing and the command that installs it.
 */
export function findChromium(env = process.env) {
  const advice = `Install it with \`${INSTALL_CHROMIUM}\`, or set CHROMIUM_PATH to a Chromium or Chrome executable.`;
  if (env.CHROMIUM_PATH) {
    if (executable(env.CHROMIUM_PATH)) return { path: env.CHROMIUM_PATH };
    return { problem: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable. ${advice}` };
  }
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of NAMES) {
    for (const dir of dirs) if (executable(path.join(dir, name))) return { path: path.join(dir, name) };
  }
  for (const app of MAC_APPS) if (executable(app)) return { path: app };
  return { problem: `The browser tests need Chromium, and none was found (${NAMES.join(', ')}). ${advice}` };
}

/** The browser's path, or an error saying how to install one. */
export function chromiumPath(env = process.env) {
  const found = findChromium(env);
  if (!found.path) throw new Error(found.problem);
  return found.path;
}
