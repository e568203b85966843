// One engine step as a line of the execution's log, and that line read back (kaigi run prints it as it comes).
import type { StepResult } from './types.js';

const PREFIX = 'kaigi step ';

export interface StepNews {
  discussion: string;
  phases: string;
  messages: number;
  tokens: number;
  status: string;
}

// `kaigi step DISC-… phase 2: 8 messages, 12345 tokens, status IN_PROGRESS`.
export function stepLine(id: string, r: Pick<StepResult, 'messages' | 'status'>): string {
  const phases = [...new Set(r.messages.map((m) => m.phase))].sort().join('+') || '-';
  const tokens = r.messages.reduce((a, m) => a + m.metadata.tokens_consumed, 0);
  return `${PREFIX}${id} phase ${phases}: ${r.messages.length} messages, ${tokens} tokens, status ${r.status}`;
}

export function readStepLine(text: string): StepNews | null {
  const m = /^kaigi step (\S+) phase ([\d+-]+): (\d+) messages, (\d+) tokens, status (\w+)$/.exec(text);
  if (!m) return null;
  return { discussion: m[1], phases: m[2], messages: Number(m[3]), tokens: Number(m[4]), status: m[5] };
}
