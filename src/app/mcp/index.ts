// The MCP server as the web app runs it: the operation registry, CacheService for replays, Settings for how long.
import { sha256Hex } from '../../store/crypto.js';
import { mcpCache } from '../../store/mcp-cache.js';
import { sleep } from '../../store/services.js';
import type { ApiError } from '../../core/api/api.js';
import { apiCouncil, apiSettings } from '../api/api-env.js';
import { ownTaskStep, workOwnTask } from '../queue/work-now.js';
import type { Claimed } from '../queue/work-queue.js';
import { OPERATIONS } from '../routes/registry.js';
import type { McpHandler } from '../routes/router.js';
import { createMcpServer } from './server.js';
import { ports } from '../../ports.js';

// The handler for POST ?path=/mcp; `onError` is the web app's own (a ConfigError is told to a person).
export function mcpHandler(onError?: (e: unknown, answer: ApiError) => void): McpHandler {
  return createMcpServer({
    operations: OPERATIONS,
    workOwnTask: (task, wait, claimed) => workOwnTask(apiCouncil(), task, wait, claimed as Claimed | undefined),
    ownTaskStep: (wait) => ownTaskStep(apiCouncil(), wait),
    cache: mcpCache,
    // Read only when a mutating tool is called (a read replays nothing), from the call's cached Settings.
    replaySeconds: () => apiSettings().number('api.replay_seconds'),
    hash: sha256Hex,
    sleep,
    now: () => ports().clock.now(),
    onError,
  });
}
