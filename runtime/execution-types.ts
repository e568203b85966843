// What an execution is asked to do and what it reports back, and the limits Apps Script puts on executions.
import type { ExecCounts } from './host/counts.js';

export type ExecutionKind = 'trigger' | 'simple' | 'menu' | 'server' | 'webapp' | 'editor';

export interface RunOptions {
  kind?: ExecutionKind;
  // Who runs it: the owner by default, or another editor's email ('' is an anonymous web-app visitor). A trigger
  // fired by the runtime always runs as its owner.
  user?: string;
  // The execution dies just before its N-th service call reaches the host (1-based).
  killAtCall?: number;
  // Called before each service call is carried out; tests use it to move the clock mid-execution.
  onCall?: (n: number, op: string) => void;
  // Runs this source as a function body in the loaded project instead of a named function (tests only).
  code?: string;
  // The user's locale for this execution (Session.getActiveUserLocale(), e.g. 'en' or 'ja_JP'); the spreadsheet's
  // locale when absent. `kaigi serve` previews a page in the language its ?locale= asks for.
  locale?: string;
}

export interface ExecutionError {
  name: string;
  message: string;
  stack: string;
}

export interface ExecutionResult {
  id: number;
  fn: string;
  kind: ExecutionKind;
  ok: boolean;
  value?: unknown;
  output?: { kind: 'text' | 'html'; mimeType: string; content: string; title?: string };
  plain?: boolean;
  error?: ExecutionError;
  killed?: boolean;
  timedOut?: boolean;
  // Spreadsheet writes the execution still held when it was killed or timed out, and so lost.
  lostWrites?: number;
  counts: ExecCounts;
  // On the execution's own clock (the runtime's plus modelled time): endedAt - startedAt is how long Apps Script
  // would have taken.
  startedAt: number;
  endedAt: number;
  // Of that, the modelled part (service calls, the start, lock waits, sleeps: host/time-model.ts), and the real
  // time the execution took here.
  modelledMs: number;
  realMs: number;
  // Of the modelled time, what Utilities.sleep took (a retry's back-off, a poll's wait).
  sleptMs: number;
  logs: { level: string; text: string }[];
}

export const EXECUTION_LIMIT_MS = 6 * 60 * 1000;
export const SIMPLE_TRIGGER_LIMIT_MS = 30 * 1000;
export const MAX_CONCURRENT_EXECUTIONS = 30;
export const MAX_CONCURRENT_SERVER_CALLS = 10;
