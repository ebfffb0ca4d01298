import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The workbench is served by `trawl serve` from dist/ under a CSP without 'unsafe-inline': Vite's output is one
// module script and one stylesheet, both external files, and nothing is inlined into index.html.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    reportCompressedSize: false,
  },
});
