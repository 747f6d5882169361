import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/integration-tests/test/**/*.test.ts'],
          // The processes under test run the compiled packages: build them first.
          globalSetup: ['packages/integration-tests/src/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // Process clusters share two cores: run integration files one at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
