// kaigi run's progress on stderr while the council works: each phase as it starts and ends (its speakers, the tokens
// so far, the wall-clock time since the run began) and each change of the discussion's status, as the executions
// commit them to the workbook. Read on a timer from the runtime's workbook on this thread, so the built script knows
// nothing of it; a commit lands whole between two service calls, so each look sees whole steps.
import type { Runtime } from '../runtime/runtime.js';
import { rowsOf, tabByKey } from '../sheets-schema/index.js';
import { phaseProgress, type ProgressMessage } from '../src/core/api/api-progress.js';
import { readStepLine } from '../src/core/engine/step-line.js';
import { discussionOfTask } from './workbook-reads.js';

interface Seen extends ProgressMessage {
  tokens: number;
}

// Statuses a discussion passes through while the council works: not worth a line of their own.
const WORKING = ['OPEN', 'IN_PROGRESS', 'VOTING'];

// How often the workbook is looked at while executions run: often enough that a line follows its commit closely,
// rarely enough that a large Messages tab costs little (only rows added since the last look are read).
const LOOK_EVERY_MS = 200;

function sheetOf(rt: Runtime, key: 'discussions' | 'messages') {
  const spec = tabByKey(key);
  return rt.workbook.sheetByName(spec.name) ?? (spec.nameJa ? rt.workbook.sheetByName(spec.nameJa) : null);
}

const grouped = (n: number) => n.toLocaleString('en-US');

export class RunProgress {
  private id = '';
  // The discussion's row in the Discussion Log, and the Messages rows read so far (the header is row 1).
  private logRow = 0;
  private messagesRead = 1;
  private readonly messages: Seen[] = [];
  private readonly reported = new Map<number, string>();
  private status = '';
  private timer: ReturnType<typeof setInterval> | null = null;
  private failure: Error | null = null;
  private readonly startedAt = performance.now();
  // The runtime's log lines read so far: the engine says each step as it ends, before its commit lands.
  private logsRead = 0;
  private stepTokens = 0;

  constructor(
    private readonly rt: Runtime,
    private readonly taskId: string,
    private readonly out: (line: string) => void,
  ) {}

  // One line, with the wall-clock time since the run began.
  say(text: string): void {
    const s = ((performance.now() - this.startedAt) / 1000).toFixed(1);
    this.out(`kaigi: ${text} (${s} s)`);
  }

  // Looks at the workbook while executions run; `stop` looks a last time and ends the looking.
  start(): void {
    this.timer = setInterval(() => {
      try {
        this.look();
      } catch (e) {
        // Raised from stop(), on the command's own path, rather than thrown out of a timer.
        this.failure = e as Error;
        this.halt();
      }
    }, LOOK_EVERY_MS);
  }

  stop(): void {
    this.halt();
    if (this.failure) throw this.failure;
    this.look();
  }

  // Ends the looking without a last look (the run failed; its error is the one to report).
  halt(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  // What was committed since the last look, said as phase and status changes.
  look(): void {
    this.readSteps();
    if (!this.id) {
      const d = discussionOfTask(this.rt, this.taskId);
      if (!d) return;
      this.id = d.id;
      this.say(`${d.id} opened`);
    }
    const status = this.readStatus();
    this.readMessages();
    const phases = phaseProgress(status, this.messages, {});
    const tokens = this.messages.reduce((a, m) => a + m.tokens, 0);
    // The tokens spent by the end of a phase: every message up to its last one (several steps may land in one commit).
    const tokensBy = (phase: number) => {
      let last = -1;
      this.messages.forEach((m, i) => {
        if (m.phase === phase) last = i;
      });
      return this.messages.slice(0, last + 1).reduce((a, m) => a + m.tokens, 0);
    };
    for (const p of phases) {
      const was = this.reported.get(p.phase) ?? 'pending';
      if (p.state === was || p.state === 'pending' || p.state === 'skipped') continue;
      // A phase done at one look and not seen running at the last is said to start, then to end.
      if (was !== 'current') this.say(`phase ${p.phase} (${p.name}) started`);
      if (p.state === 'done') {
        const k = p.speakers.length;
        this.say(
          `phase ${p.phase} (${p.name}) ended: ${k} speaker${k === 1 ? '' : 's'}, ${grouped(tokensBy(p.phase))} tokens so far`,
        );
      }
      this.reported.set(p.phase, p.state);
    }
    if (status !== this.status && WORKING.indexOf(status) < 0)
      this.say(`${this.id} ${status}: ${this.messages.length} messages, ${grouped(tokens)} tokens`);
    this.status = status;
  }

  // Each step as the engine finished it (its commit may wait for the steps after it): the answers and tokens it took.
  private readSteps(): void {
    const logs = this.rt.logs;
    for (; this.logsRead < logs.length; this.logsRead++) {
      const news = readStepLine(logs[this.logsRead].text);
      if (!news || (this.id && news.discussion !== this.id)) continue;
      this.stepTokens += news.tokens;
      const n = news.messages;
      this.say(
        `phase ${news.phases}: ${n} answer${n === 1 ? '' : 's'} in, ${grouped(this.stepTokens)} tokens so far (not yet committed)`,
      );
    }
  }

  private readStatus(): string {
    const sheet = sheetOf(this.rt, 'discussions');
    if (!sheet) return '';
    const wb = this.rt.workbook;
    const cols = rowsOf('discussions');
    const width = cols.index('status') + 1;
    const at = (row: number) => cols.read(wb.getValues(sheet, row, 1, 1, width)[0]);
    // The row found last time, unless rows moved (an archive run by the daily review).
    if (this.logRow >= 2 && this.logRow <= wb.lastRow(sheet)) {
      const r = at(this.logRow);
      if (r.discussion_id === this.id) return String(r.status);
    }
    const last = wb.lastRow(sheet);
    if (last < 2) return '';
    const rows = wb.getValues(sheet, 2, 1, last - 1, width).map((v) => cols.read(v));
    const i = rows.findIndex((r) => r.discussion_id === this.id);
    this.logRow = i < 0 ? 0 : i + 2;
    return i < 0 ? '' : String(rows[i].status);
  }

  private readMessages(): void {
    const sheet = sheetOf(this.rt, 'messages');
    if (!sheet) return;
    const wb = this.rt.workbook;
    const last = wb.lastRow(sheet);
    // Fewer rows than were read: a commit was rolled back; its messages are read again as they are written again.
    if (last < this.messagesRead) {
      this.messagesRead = 1;
      this.messages.length = 0;
    }
    if (last <= this.messagesRead) return;
    const cols = rowsOf('messages');
    const width = cols.index('tokens_consumed') + 1;
    for (const v of wb.getValues(sheet, this.messagesRead + 1, 1, last - this.messagesRead, width)) {
      const r = cols.read(v);
      // A long message continues on chunk rows; its first row carries what progress needs.
      if (r.discussion_id !== this.id || Number(r.chunk) !== 0) continue;
      this.messages.push({
        phase: Number(r.phase),
        speaker: String(r.speaker),
        timestamp: String(r.timestamp),
        processing_ms: Number(r.processing_time_ms) || 0,
        tokens: Number(r.tokens_consumed) || 0,
      });
    }
    this.messagesRead = last;
  }
}
