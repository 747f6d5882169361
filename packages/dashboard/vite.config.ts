import { defineConfig } from 'vite';

// The dashboard is a static bundle the JobManager serves at `/` (see node/index.ts), built into
// web/ (dist/ holds the package's compiled node entry). Relative asset paths, so it also works
// behind a proxy that serves the JobManager under a prefix.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'web', emptyOutDir: true, chunkSizeWarningLimit: 1_000 },
  logLevel: 'warn',
});
