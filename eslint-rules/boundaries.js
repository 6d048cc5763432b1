// Two ESLint rules for the boundaries docs/conventions.md states (rule 2, and "In the web app"'s "no cross-feature
// imports"), written against the rule API ESLint 9 and 10 share (`context.filename`, `meta.messages`), so they
// need no plugin and survive an ESLint upgrade:
// - `no-cross-app-imports`: nothing under apps/ or packages/ imports an app it is not part of, by relative
//   path or by the app's package name (@funnel/bff, …): apps talk over HTTP, Redis and the job queue only.
// - `no-cross-feature-imports`: a file in apps/web/src/features/<a>/ imports nothing from features/<b>/ (by
//   relative path or the `@/` alias); what two features share moves up to components/, hooks/, lib/ or config/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const appsDir = path.join(root, 'apps');
const webSrc = path.join(appsDir, 'web', 'src');
const featuresDir = path.join(webSrc, 'features');

/** Each app's package name → its folder under apps/, read from the apps' package.json files. */
const appOfPackageName = new Map(
  readdirSync(appsDir)
    .filter((dir) => existsSync(path.join(appsDir, dir, 'package.json')))
    .map((dir) => [JSON.parse(readFileSync(path.join(appsDir, dir, 'package.json'), 'utf8')).name, dir]),
);

/** The first folder of `file` under `dir`, or undefined when `file` is not inside `dir`. */
function folderUnder(dir, file) {
  const relative = path.relative(dir, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep)[0];
}

/** The file or folder an import specifier points at, when it is a path (relative, or web's `@/` alias). */
function importedPath(specifier, filename) {
  if (specifier.startsWith('.')) return path.resolve(path.dirname(filename), specifier);
  if (specifier.startsWith('@/') && folderUnder(webSrc, filename))
    return path.join(webSrc, specifier.slice(2));
  return undefined;
}

/** The bare package name of a specifier (`@funnel/bff/src/x` → `@funnel/bff`). */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Calls `check(specifier, node)` for every static import, re-export and dynamic `import('…')` of a file. */
function onEveryImport(check) {
  const withSource = (node) => {
    if (node.source && typeof node.source.value === 'string') check(node.source.value, node.source);
  };
  return {
    ImportDeclaration: withSource,
    ExportAllDeclaration: withSource,
    ExportNamedDeclaration: withSource,
    ImportExpression: withSource,
  };
}

const noCrossAppImports = {
  meta: {
    type: 'problem',
    docs: { description: 'An app is imported by no other app or package (docs/conventions.md, rule 2).' },
    schema: [],
    messages: {
      crossApp:
        "'{{specifier}}' reaches into apps/{{target}} from {{from}}: apps never import each other. Move what both need into a package under packages/.",
    },
  },
  create(context) {
    const filename = context.filename;
    const ownApp = folderUnder(appsDir, filename);
    const from = ownApp
      ? `apps/${ownApp}`
      : path.relative(root, filename).split(path.sep).slice(0, 2).join('/');
    return onEveryImport((specifier, node) => {
      const target = importedPath(specifier, filename);
      const targetApp = target ? folderUnder(appsDir, target) : appOfPackageName.get(packageName(specifier));
      if (targetApp && targetApp !== ownApp) {
        context.report({ node, messageId: 'crossApp', data: { specifier, target: targetApp, from } });
      }
    });
  },
};

const noCrossFeatureImports = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'A web feature imports nothing from another feature (docs/conventions.md, "In the web app").',
    },
    schema: [],
    messages: {
      crossFeature:
        "'{{specifier}}' reaches into features/{{target}} from features/{{own}}: features never import each other. Move what both need to src/components, src/hooks, src/lib or src/config.",
    },
  },
  create(context) {
    const filename = context.filename;
    const own = folderUnder(featuresDir, filename);
    if (!own) return {};
    return onEveryImport((specifier, node) => {
      const target = importedPath(specifier, filename);
      const targetFeature = target ? folderUnder(featuresDir, target) : undefined;
      if (targetFeature && targetFeature !== own) {
        context.report({ node, messageId: 'crossFeature', data: { specifier, target: targetFeature, own } });
      }
    });
  },
};

/** The local plugin: `boundaries/no-cross-app-imports`, `boundaries/no-cross-feature-imports`. */
export default {
  meta: { name: 'funnel-boundaries' },
  rules: {
    'no-cross-app-imports': noCrossAppImports,
    'no-cross-feature-imports': noCrossFeatureImports,
  },
};
