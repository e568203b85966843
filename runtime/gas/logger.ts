// Logger and console: lines go to the host's execution log.
import { getBridge } from './bridge.js';

function render(args: unknown[]): string {
  return args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' ');
}

function safeJson(v: unknown): string {
  if (v instanceof Error) return `${v.name}: ${v.message}`;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

const lines: string[] = [];

export const Logger = {
  log(format: unknown, ...args: unknown[]) {
    let text: string;
    if (typeof format === 'string' && args.length && /%s|%d/.test(format)) {
      let i = 0;
      text = format.replace(/%[sd]/g, () => String(args[i++]));
    } else {
      text = render([format, ...args]);
    }
    lines.push(text);
    getBridge().log('info', text);
    return Logger;
  },
  getLog(): string {
    return lines.join('\n');
  },
  clear(): void {
    lines.length = 0;
  },
};

export const console = {
  log: (...a: unknown[]) => getBridge().log('info', render(a)),
  info: (...a: unknown[]) => getBridge().log('info', render(a)),
  warn: (...a: unknown[]) => getBridge().log('warn', render(a)),
  error: (...a: unknown[]) => getBridge().log('error', render(a)),
  time: (_label?: string) => undefined,
  timeEnd: (_label?: string) => undefined,
};
