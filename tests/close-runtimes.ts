// Vitest setup file: after every test, close the runtimes it created (see newRuntime in tests/helpers.ts).
import { afterEach } from 'vitest';
import { closeRuntimes } from './helpers.js';

afterEach(closeRuntimes);
