// `npm run deps:check`: lists every direct dependency (root, apps/*, packages/*, bench) whose installed major is
// behind the registry's current one (`npm view <name> version`). For people, not CI: it always exits 0, so a
// release somewhere else never fails a build. Under semver a 0.x minor is a major (kysely 0.28 → 0.29).
// npm aliases (`bullmq-v5@npm:bullmq@5`) are deliberately old and listed apart; workspace packages are skipped.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

async function main() {
  const rootManifest = readJson(path.join(root, 'package.json'));
  const { stdout: workspaceList } = await run('npm', ['query', '.workspace'], {
    cwd: root,
    maxBuffer: 1 << 24,
  });
  const workspaces = JSON.parse(workspaceList).map((ws) => ({
    dir: path.join(root, ws.location),
    name: ws.name,
  }));
  const workspaceNames = new Set(workspaces.map((ws) => ws.name));

  /** Every direct dependency of every manifest: which manifest, the name, and the range it asks for. */
  const wanted = [];
  for (const { dir, name: owner } of [{ dir: root, name: rootManifest.name }, ...workspaces]) {
    const manifest = readJson(path.join(dir, 'package.json'));
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      for (const [name, range] of Object.entries(manifest[field] ?? {})) {
        if (!workspaceNames.has(name)) wanted.push({ owner, dir, name, range });
      }
    }
  }

  /** The installed version as Node would resolve it from the workspace (hoisted or not). */
  function installed(dir, name) {
    for (let at = dir; ; at = path.dirname(at)) {
      const file = path.join(at, 'node_modules', name, 'package.json');
      if (existsSync(file)) return readJson(file).version;
      if (at === root || at === path.dirname(at)) return undefined;
    }
  }

  /** `[major, minor]` compared as one number: 0.x versions count their minor as the major, as semver does. */
  const majorOf = (version) => {
    const [major, minor] = version.split('.').map(Number);
    return major === 0 ? `0.${minor}` : String(major);
  };

  const latest = new Map();
  const names = [
    ...new Set(wanted.map((dep) => (dep.range.startsWith('npm:') ? null : dep.name)).filter(Boolean)),
  ];
  const LOOKUPS_AT_ONCE = 6;
  for (let i = 0; i < names.length; i += LOOKUPS_AT_ONCE) {
    await Promise.all(
      names.slice(i, i + LOOKUPS_AT_ONCE).map(async (name) => {
        try {
          const { stdout } = await run('npm', ['view', name, 'version'], { cwd: root });
          latest.set(name, stdout.trim());
        } catch (err) {
          latest.set(name, `? (${String(err.message).split('\n')[0]})`);
        }
      }),
    );
  }

  const behind = [];
  const aliases = [];
  for (const dep of wanted) {
    const version = installed(dep.dir, dep.name) ?? '(not installed)';
    if (dep.range.startsWith('npm:')) {
      aliases.push({ ...dep, version });
      continue;
    }
    const current = latest.get(dep.name);
    if (
      !current ||
      current.startsWith('?') ||
      version.startsWith('(') ||
      majorOf(version) !== majorOf(current)
    )
      behind.push({ ...dep, version, current: current ?? '?' });
  }

  const pad = (rows, key) => Math.max(key.length, ...rows.map((row) => String(row[key]).length));
  if (behind.length === 0) {
    console.log(
      `All ${wanted.length - aliases.length} direct dependencies are on the registry's current major.`,
    );
  } else {
    const widths = {
      owner: pad(behind, 'owner'),
      name: pad(behind, 'name'),
      version: Math.max('installed'.length, pad(behind, 'version')),
    };
    console.log(`${behind.length} direct dependencies behind the registry's current major:\n`);
    console.log(
      `${'package'.padEnd(widths.name)}  ${'in'.padEnd(widths.owner)}  ${'installed'.padEnd(widths.version)}  current`,
    );
    for (const dep of behind.sort((a, b) => a.name.localeCompare(b.name) || a.owner.localeCompare(b.owner)))
      console.log(
        `${dep.name.padEnd(widths.name)}  ${dep.owner.padEnd(widths.owner)}  ${dep.version.padEnd(widths.version)}  ${dep.current}`,
      );
    console.log('\nReasons for the ones kept back on purpose: docs/dependencies.md.');
  }
  for (const alias of aliases)
    console.log(`alias ${alias.name} (${alias.range}) in ${alias.owner}: ${alias.version}, kept on purpose`);
}

try {
  await main();
} catch (err) {
  console.error(`deps:check could not finish: ${err instanceof Error ? err.message : String(err)}`);
}
process.exit(0);
