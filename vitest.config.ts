import { defineConfig } from 'vitest/config';

// Two projects: everything runs in Node but the workbench's component tests, which need a DOM (jsdom). The e2e
// test drives a real browser from Node, so it belongs to the node project.
export default defineConfig({
  test: {
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['packages/*/test/**/*.test.ts'],
          exclude: ['packages/web/test/dom/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['packages/web/test/dom/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['packages/web/test/dom/setup.ts'],
        },
      },
    ],
  },
});
