// Two projects: the pure core in-process (fast, no bundle), and everything that drives the built files in the
// runtime (the global setup rebuilds them when a source is newer; every test's runtimes are closed after it).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'core', include: ['tests/src/core/**/*.test.ts', 'tests/bench/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'bundle',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/src/core/**', 'tests/bench/**'],
          globalSetup: ['tests/global-setup.ts'],
          setupFiles: ['tests/close-runtimes.ts'],
        },
      },
    ],
  },
});
