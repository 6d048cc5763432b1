import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // `source` first: the contracts package is compiled from its TypeScript, so the browser gets exactly the
    // modules it imports (no barrel, no prebuilt dist) and tree-shaking sees through them.
    conditions: ['source', ...defaultClientConditions],
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    target: 'es2022',
    // The bundle-size check reads the manifest to tell the entry's chunks from the lazy step chunks.
    manifest: true,
  },
});
