import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Browser tests: serve the built site in dist/ and drive headless Chromium
// with playwright-core. Run after `vite build`.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    environment: 'node',
    include: ['tests/e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
