// A local model server for one test file: started before its tests and stopped after them, with runtimes allowed to
// reach it (it is on loopback, which a runtime refuses unless told, as the CLI does for a local --base-url).
import { afterAll, beforeAll } from 'vitest';
import type { Runtime } from '../runtime/runtime.js';
import { ModelServer } from '../tools/model-server.js';

export interface LocalModels {
  // The server itself: its recorded requests, the plan that shapes its answers.
  server: ModelServer;
  // The server's base URL (set once the file's tests start).
  base(): string;
  allow(rt: Runtime): void;
}

export function localModelServer(): LocalModels {
  const server = new ModelServer();
  let base = '';
  beforeAll(async () => {
    base = await server.start();
  });
  afterAll(() => server.stop());
  return {
    server,
    base: () => base,
    allow: (rt) => {
      rt.allowLocalFetch = [base];
    },
  };
}
