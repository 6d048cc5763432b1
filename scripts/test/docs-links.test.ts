import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The README and every Markdown file under docs/: what a newcomer follows. */
function documents(): string[] {
  const found = ['README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir))) {
      const relative = path.join(dir, name);
      if (statSync(path.join(root, relative)).isDirectory()) walk(relative);
      else if (name.endsWith('.md')) found.push(relative);
    }
  };
  walk('docs');
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));
}

/** Every relative link target in a Markdown file (code blocks left out), with its optional #fragment. */
function relativeLinks(file: string): { target: string; fragment?: string }[] {
  const text = readFileSync(path.join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((link) => !/^[a-z][a-z+.-]*:/i.test(link))
    .map((link) => {
      const [target, fragment] = link.split('#');
      return { target: target ?? '', fragment };
    });
}

describe('documentation links', () => {
  it('the README stays a map of at most 250 lines', () => {
    const lines = readFileSync(path.join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(250);
  });

  it.each(documents())('every link in %s resolves to a file (and heading) in the repository', (file) => {
    const broken: string[] = [];
    for (const { target, fragment } of relativeLinks(file)) {
      const resolved = target === '' ? file : path.join(path.dirname(file), target);
      if (!existsSync(path.join(root, resolved))) {
        broken.push(`${target} (no such file)`);
        continue;
      }
      if (fragment && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment))
        broken.push(`${target}#${fragment} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });
});
