import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The repo root is Vite's root (index.html lives there). `base: './'` makes
// every asset URL in dist/ relative, so the build works from any static
// server and any sub-path. The engine runs in a module worker that loads
// the wasm-pack output (web/src/engine/pkg) through `new URL(..., import.meta.url)`.
export default defineConfig({
  root: '.',
  base: './',
  publicDir: 'public',
  plugins: [react()],
  worker: {
    format: 'es',
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
  server: {
    host: '127.0.0.1',
  },
});
