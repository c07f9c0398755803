import { defineConfig } from 'vitest/config';

// Web unit tests: DOM-free models, the URL codec, the worker protocol and the
// engine host (against the real wasm build in web/src/engine/pkg).
export default defineConfig({
  test: {
    environment: 'node',
    include: ['tests/unit/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
