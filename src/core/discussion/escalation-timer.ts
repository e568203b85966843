// An escalation nobody answers: a reminder at half of discussion.escalation_timeout_hours, then TIMEOUT
// at the full time, each with an Inbox row in the locale. Pure: the queue task (src/app/tasks/escalation-timeout.ts)
// schedules and commits what this returns.
import { Builder } from '../engine/builder.js';
import type { EngineEnv, StepResult } from '../engine/types.js';
import type { Discussion } from '../types.js';
import { parseInstant } from '../instant.js';

export type EscalationStage = 'remind' | 'expire';

// The payload of the queue task that wakes the timer (src/core/queue-tasks.ts).
export interface EscalationTimer {
  discussion_id: string;
  row?: number;
  // When the discussion was escalated (ms): the timer measures from it.
  escalated_at: number;
  stage: EscalationStage;
}

// When the timer for a stage wakes: half the timeout after the escalation, then the full timeout.
export function escalationWake(escalatedAt: number, timeoutHours: number, stage: EscalationStage): number {
  const full = timeoutHours * 3600_000;
  return escalatedAt + (stage === 'remind' ? full / 2 : full);
}

// The timer is stale when the discussion left ESCALATED, or was deliberated again since (a later escalation has
// its own timer): any message after the escalation says so.
export function timerStale(d: Discussion, escalatedAt: number): boolean {
  return d.status !== 'ESCALATED' || d.messages.some((m) => parseInstant(m.timestamp) > escalatedAt + 1000);
}

function texts(id: string, hours: number, stage: EscalationStage, lang: 'ja' | 'en'): { title: string; body: string } {
  if (stage === 'remind')
    return lang === 'ja'
      ? {
          title: `${id}: 人の判断を待っています（エスカレーションから${hours}時間）`,
          body: `この議論は人の判断（承認・差し戻し・却下）を待っています。あと${hours}時間応答がなければ TIMEOUT になります。サイドバーまたは POST /escalations/${id} で対応してください。`,
        }
      : {
          title: `${id}: waiting for a person (escalated ${hours} h ago)`,
          body: `This discussion is waiting for a person to approve, return or reject it. Without an answer in ${hours} h more it becomes TIMEOUT. Answer from the sidebar or with POST /escalations/${id}.`,
        };
  return lang === 'ja'
    ? {
        title: `${id}: 応答がなかったため TIMEOUT になりました`,
        body: `エスカレーションから${hours}時間、人の判断がありませんでした。議論は TIMEOUT で終了し、指示は実行されません。必要なら新しい議論を開始してください。`,
      }
    : {
        title: `${id}: no answer, the discussion timed out`,
        body: `Nobody answered the escalation within ${hours} h. The discussion ended as TIMEOUT and no order is carried out. Start a new discussion if it is still needed.`,
      };
}

// What a stage writes: the reminder is an Inbox row only; the expiry is the TIMEOUT transition, a note and its row.
export function escalationStep(
  d: Discussion,
  env: EngineEnv,
  timeoutHours: number,
  stage: EscalationStage,
): StepResult {
  const b = new Builder(d, env);
  const hours = stage === 'remind' ? timeoutHours / 2 : timeoutHours;
  if (stage === 'expire') {
    b.to('TIMEOUT');
    b.out.closedAt = env.isoNow();
    b.note(`TIMEOUT: no answer to the escalation within ${timeoutHours} h`);
  }
  b.out.inbox.push({
    from_agent: 'system',
    type: 'anomaly_alert',
    priority: 'high',
    ...texts(d.discussion_id, hours, stage, env.lang),
    discussion_id: d.discussion_id,
  });
  return b.out;
}
