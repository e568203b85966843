// Every command of the command line: adding one is a module under commands/ plus one line here.
import { directiveCommand } from './directive.js';
import { evalCommand } from './eval.js';
import { exportCommand } from './export.js';
import { gatewayCommand } from './gateway.js';
import { kpiCommand } from './kpi.js';
import { mcpCommand } from './mcp.js';
import { objectCommand, resolveCommand } from './object.js';
import { queueCommand } from './queue.js';
import { reportCommand } from './report.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';
import { tickCommand } from './tick.js';
import { tokenCommand } from './token.js';
import { verifyAuditCommand } from './verify-audit.js';
import type { Command } from '../shared.js';

export const COMMANDS: readonly Command[] = [
  runCommand,
  tickCommand,
  exportCommand,
  verifyAuditCommand,
  objectCommand,
  resolveCommand,
  reportCommand,
  serveCommand,
  tokenCommand,
  mcpCommand,
  gatewayCommand,
  queueCommand,
  kpiCommand,
  directiveCommand,
  evalCommand,
];
