// The Node versions the project runs on, checked before anything else: imported first by `npm start` and
// `npm test`, so an unsupported Node stops with one line naming the supported ones instead of failing later in
// npx, turbo or a dependency with a stack trace. The versions come from package.json's `engines` (one place).
// Written for any Node: no import beyond node:fs, no syntax newer than Node 12.
import { readFileSync } from 'node:fs';

/**
 * The line that refuses `version` when `engines` (an `engines.node` of `^major.minor.patch` ranges joined by
 * `||`) does not admit it; undefined when it does.
 */
export function unsupportedNode(version, engines) {
  const ranges = [...engines.matchAll(/\^(\d+)\.(\d+)\.\d+/g)].map((m) => [Number(m[1]), Number(m[2])]);
  const [major, minor] = version.split('.').map(Number);
  if (ranges.some(([m, n]) => major === m && minor >= n)) return undefined;
  const names = ranges.map(([m, n]) => (n > 0 ? `${m} (${m}.${n} or later)` : String(m)));
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
  return `This is Node ${version}; the funnel runs on Node ${list}. Install one (e.g. \`nvm install 24\`) and run the command again.`;
}

const engines = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
const problem = unsupportedNode(process.versions.node, engines);
if (problem) {
  console.error(`${problem} (${process.execPath})`);
  process.exit(1);
}
