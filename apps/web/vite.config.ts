import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions, defineConfig, type Plugin } from 'vite';

/** The operator page's feature folder: nothing in it is a borrower's. */
const OPERATOR_SOURCE = '/src/features/operator/';

/** zod's JSON Schema export: what its modules export, and the one function the browser must never call. */
const ZOD_JSON_SCHEMA_MODULES = /zod\/v4\/core\/(to-json-schema|json-schema-processors)\.js$/;

/**
 * Leaves zod's JSON Schema export (`toJSONSchema`, `~standard.jsonSchema`) out of the browser build: zod's classic
 * schemas import it whether it is used or not, it is ~5 kB gzip of the first screen, and no screen turns a schema
 * into JSON Schema. Each export is kept by name and throws if called, so a future caller fails loudly.
 */
function omitZodJsonSchema(): Plugin {
  return {
    name: 'omit-zod-json-schema',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (!ZOD_JSON_SCHEMA_MODULES.test(id)) return null;
      const source = readFileSync(id, 'utf8');
      const names = new Set<string>();
      for (const match of source.matchAll(/^export (?:function|const|class) ([A-Za-z_$][\w$]*)/gm)) {
        names.add(match[1] as string);
      }
      for (const match of source.matchAll(/^export \{([^}]*)\}/gm)) {
        for (const part of (match[1] as string).split(',')) {
          const name = part
            .trim()
            .split(/\s+as\s+/)
            .pop();
          if (name) names.add(name);
        }
      }
      if (names.size === 0) throw new Error(`omit-zod-json-schema: no exports found in ${id}`);
      const stub = [...names].map((name) => `export const ${name} = unavailable;`).join('\n');
      return `function unavailable() { throw new Error('zod JSON Schema export is left out of the browser build'); }\n${stub}\n`;
    },
  };
}

export default defineConfig({
  plugins: [react(), omitZodJsonSchema()],
  resolve: {
    // `source` first: the contracts package is compiled from its TypeScript, so the browser gets exactly the
    // modules it imports (no barrel, no prebuilt dist) and tree-shaking sees through them.
    conditions: ['source', ...defaultClientConditions],
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  // The prerender's build (src/entry-prerender.tsx, run by Node at build time only): the contracts from their
  // TypeScript like the browser's build, packages from node_modules as they are.
  ssr: {
    noExternal: ['@funnel/contracts'],
    resolve: { conditions: ['source', ...defaultServerConditions] },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    target: 'es2022',
    // The bundle-size check reads the manifest to tell the entry's chunks from the lazy step chunks.
    manifest: true,
    rolldownOptions: {
      output: {
        // React, react-router and TanStack Query in one chunk the entry loads. react-router 8 ships one module per
        // file instead of one bundle, and left alone Rolldown split its hooks and components into chunks of
        // their own (shared with the lazy routes): eight more first-screen requests and ~4 kB more gzip.
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|@tanstack[\\/][a-z-]+)[\\/]/,
            },
          ],
        },
        // The operator page's chunks (and the chart library inside them) are named apart, so the bundle check
        // can tell them from the borrower's.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes(OPERATOR_SOURCE))
            ? 'assets/operator-[name]-[hash].js'
            : 'assets/[name]-[hash].js',
      },
    },
  },
});
