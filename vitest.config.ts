// Three projects: the pure core in-process (fast, no bundle); the use cases in-process on the in-memory ports
// (src/adapters/memory: no runtime, no bundle), in files named *.inproc.test.ts; and everything that drives the built
// files in the runtime (the global setup rebuilds them when a source is newer; every test's runtimes are closed after it).
import { defineConfig } from 'vitest/config';

// Run in each zone project below instead of in 'bundle'.
const ZONE_FILES = ['tests/runtime/script-zone.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for the product (a browser page calling the built file, say); its default second is too
    // short on a loaded 2-core CI machine, where an estimate once took longer. A poll only waits: it asserts no time.
    expect: { poll: { timeout: 30_000 } },
    pool: 'forks',
    // Two test files at a time on the 2-core machine (vitest's default is one fewer than the cores: one). Most bundle
    // tests wait on their runtime's worker threads, child processes or a browser, so two files share the cores well.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          include: ['tests/src/core/**/*.test.ts', 'tests/bench/**/*.test.ts', 'tests/repo-*.test.ts'],
          // The load bench runs the built CLI and runtime: those tests need the bundle's build.
          exclude: ['tests/bench/load*.test.ts'],
          // Pure functions of their inputs: one module graph per worker thread, not a process and an import per file
          // (each file's own tests take milliseconds, a fresh process for it about a third of a second).
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'app',
          include: ['tests/src/**/*.inproc.test.ts'],
          // One module graph per worker, not per file: importing the use cases costs more than running them. Each
          // test installs fresh ports (tests/src/app/inproc.ts), and src/ keeps only per-execution state in modules.
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'bundle',
          include: ['tests/**/*.test.ts'],
          exclude: [
            'tests/src/core/**',
            'tests/bench/!(load)*.test.ts',
            'tests/repo-*.test.ts',
            '**/*.inproc.test.ts',
            ...ZONE_FILES,
          ],
          globalSetup: ['tests/global-setup.ts'],
          setupFiles: ['tests/close-runtimes.ts'],
          // A worker keeps its modules from file to file: the runtime and its helpers are loaded once per worker, not
          // per file, and council()'s set-up workbooks (tests/council-helpers.ts) are made once per worker. No test
          // here mocks modules or changes the process's globals or env, and every runtime is closed after its test.
          isolate: false,
        },
      },
      // The date-sensitive files once in each of two host zones: the script's zone is the manifest's, never the
      // host's, so both give the same results (runtime/script-zone.ts). `env` sets TZ in the test process first.
      ...(['UTC', 'America/New_York'] as const).map((tz) => ({
        extends: true as const,
        test: {
          name: `zone ${tz}`,
          include: ZONE_FILES,
          env: { TZ: tz },
          globalSetup: ['tests/global-setup.ts'],
          setupFiles: ['tests/close-runtimes.ts'],
        },
      })),
    ],
  },
});
