import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unsupportedNode } from '../node-version.mjs';

const engines = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  }
).engines.node;

describe('the Node versions npm start and npm test accept', () => {
  it('admits Node 22.22 and later, 24 and 26', () => {
    for (const version of ['22.22.0', '22.23.1', '24.0.0', '24.11.2', '26.0.0', '26.3.1']) {
      expect(unsupportedNode(version, engines)).toBeUndefined();
    }
  });

  it('refuses Node 20, an older 22 and 25 with one line naming the supported versions', () => {
    for (const version of ['20.20.2', '22.11.0', '25.1.0']) {
      expect(unsupportedNode(version, engines)).toBe(
        `This is Node ${version}; the funnel runs on Node 22 (22.22 or later), 24 or 26. Install one (e.g. \`nvm install 24\`) and run the command again.`,
      );
    }
  });
});
