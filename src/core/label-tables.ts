// One label table per enum a person sees, in Japanese and English, keyed by the enum's own type so a new value
// does not compile until it has its labels (tests/src/core/labels.test.ts checks the same at run time).
import type { DashboardColumn } from './dashboard.js';
import { DIRECTIVE_STATUSES, INBOX_STATUSES } from './discussion/vocab.js';
import type { ExecutionStatus, OrderStatus } from './orders/order-status.js';
import type { MessageType } from './discussion/messages.js';
import type { Verdict } from './memory/outcomes.js';
import type { DIRECTIONS } from './memory/criteria.js';
import type {
  ACTION_TYPES,
  CHECK_RESULTS,
  INBOX_PRIORITIES,
  INBOX_TYPES,
  INTENSITIES,
  OBJECTION_STATUSES,
  Priority,
  Status,
} from './types.js';

export type Label = readonly [ja: string, en: string];
type Labels<K extends string | number> = Readonly<Record<K, Label>>;

// QUEUED: a status of the sidebar's list only, a discussion waiting for the queue to open it (src/app/steer/busy.ts).
export const STATUS_LABELS: Labels<Status | 'QUEUED'> = {
  QUEUED: ['順番待ち', 'Queued'],
  OPEN: ['受付', 'Open'],
  IN_PROGRESS: ['審議中', 'In progress'],
  VOTING: ['投票中', 'Voting'],
  DECIDED: ['決定済み', 'Decided'],
  CLOSED: ['完了（効果測定済み）', 'Closed (measured)'],
  TIMEOUT: ['時間切れ', 'Timed out'],
  ESCALATED: ['人の判断待ち', 'Escalated to a person'],
};

export const PRIORITY_LABELS: Labels<Priority> = {
  CRITICAL: ['緊急', 'Critical'],
  HIGH: ['高', 'High'],
  MEDIUM: ['中', 'Medium'],
  LOW: ['低', 'Low'],
};

export const ACTION_TYPE_LABELS: Labels<(typeof ACTION_TYPES)[number]> = {
  PRAISE_INCREASE: ['称賛を増やす', 'More praise'],
  GOAL_ADJUSTMENT: ['目標の調整', 'Goal adjustment'],
  MESSAGE_TIMING: ['声かけのタイミング', 'Message timing'],
  ONE_ON_ONE: ['1on1', 'One-on-one'],
  PEER_SUPPORT: ['同僚の支援', 'Peer support'],
  REST_RECOMMENDATION: ['休息の勧め', 'Rest recommendation'],
  SKILL_TRAINING: ['スキル研修', 'Skill training'],
};

export const INTENSITY_LABELS: Labels<(typeof INTENSITIES)[number]> = {
  low: ['弱', 'low'],
  medium: ['中', 'medium'],
  high: ['強', 'high'],
};

// The forecast verdict scores the council's prediction, not the actions: whether they helped is the effect
// (src/core/memory/effect.ts), so these labels name the forecast.
export const VERDICT_LABELS: Labels<Verdict> = {
  confirmed: ['予測どおり', 'Forecast confirmed'],
  rejected: ['予測は外れ', 'Forecast missed'],
  inconclusive: ['予測の判定は保留', 'Forecast inconclusive'],
};

// The five fallback levels (retry, substitute, default opinion, rules, a person), and 0 for an answer that needed none.
export const FALLBACK_LEVELS = [0, 1, 2, 3, 4, 5] as const;
export const FALLBACK_LABELS: Labels<(typeof FALLBACK_LEVELS)[number]> = {
  0: ['通常の回答', 'answered normally'],
  1: ['再試行して回答', 'answered after a retry'],
  2: ['代理エージェントが回答', 'a substitute agent answered'],
  3: ['このグループの意見なしで続行', "continued without this group's opinion"],
  4: ['ルールに基づく回答', 'rule-based answer'],
  5: ['人間にエスカレーション', 'escalated to a person'],
};

export const ORDER_STATUS_LABELS: Labels<OrderStatus> = {
  PENDING: ['未着手', 'Pending'],
  ACKNOWLEDGED: ['受領', 'Acknowledged'],
  IN_PROGRESS: ['実行中', 'In progress'],
  DONE: ['完了', 'Done'],
  FAILED: ['失敗', 'Failed'],
  CANCELLED: ['取り消し', 'Cancelled'],
};

// Column L of the Discussion Log: the orders' statuses taken together, and two the engine writes itself.
export const EXECUTION_STATUS_LABELS: Labels<ExecutionStatus | 'PROVISIONAL'> = {
  ...ORDER_STATUS_LABELS,
  NOT_STARTED: ['指示なし', 'No orders yet'],
  PROVISIONAL: ['暫定', 'Provisional'],
};

export const MESSAGE_TYPE_LABELS: Labels<MessageType> = {
  SITUATION_REPORT: ['状況報告', 'Situation report'],
  SPECIALIST_OPINION: ['専門家意見', 'Specialist opinion'],
  PERSPECTIVE_POSITIVE: ['前向きな視点', 'Positive perspective'],
  PERSPECTIVE_NEGATIVE: ['批判的な視点', 'Critical perspective'],
  PERSPECTIVE_HUMAN: ['現場の視点', 'Human perspective'],
  GOVERNANCE_ETHICS: ['倫理チェック', 'Ethics check'],
  GOVERNANCE_LEGAL: ['法務チェック', 'Legal check'],
  DECISION_DELIBERATION: ['審議', 'Deliberation'],
  EXECUTION_ORDER: ['実行指示', 'Execution order'],
  FEEDBACK_REQUEST: ['確認の依頼', 'Feedback request'],
  FEEDBACK_RESPONSE: ['確認への回答', 'Feedback response'],
  OBJECTION: ['異議', 'Objection'],
  ACKNOWLEDGEMENT: ['受領', 'Acknowledgement'],
  ERROR: ['エラー', 'Error'],
};

export const CHECK_RESULT_LABELS: Labels<(typeof CHECK_RESULTS)[number]> = {
  PASS: ['問題なし', 'Pass'],
  FAIL: ['問題あり', 'Fail'],
};

export const INBOX_TYPE_LABELS: Labels<(typeof INBOX_TYPES)[number]> = {
  struggle: ['行き詰まり', 'Struggle'],
  proposal: ['提案', 'Proposal'],
  question: ['質問', 'Question'],
  status_report: ['状況報告', 'Status report'],
  anomaly_alert: ['異常の通知', 'Anomaly alert'],
  milestone: ['節目', 'Milestone'],
};

export const INBOX_PRIORITY_LABELS: Labels<(typeof INBOX_PRIORITIES)[number]> = {
  low: ['低', 'Low'],
  normal: ['通常', 'Normal'],
  high: ['高', 'High'],
  urgent: ['至急', 'Urgent'],
};

export const OBJECTION_STATUS_LABELS: Labels<(typeof OBJECTION_STATUSES)[number]> = {
  OPEN: ['判断待ち', 'Awaiting a judgement'],
  ACCEPTED: ['採用', 'Accepted'],
  REJECTED: ['却下', 'Rejected'],
  WITHDRAWN: ['取り下げ', 'Withdrawn'],
  // Older rows' values, shown as they were written.
  RESOLVED: ['解決', 'Resolved'],
  FAILED: ['処理失敗', 'Failed'],
};

// The demo team's KPI series and the watcher's default metric; a metric of one's own is shown by its name.
export const METRICS = ['contacts', 'appointments', 'login_streak', 'praise_count_last_7d', 'overtime_hours'] as const;
export const METRIC_LABELS: Labels<(typeof METRICS)[number]> = {
  contacts: ['連絡数', 'contacts'],
  appointments: ['アポイント数', 'appointments'],
  login_streak: ['連続ログイン日数', 'login streak'],
  praise_count_last_7d: ['直近7日の称賛回数', 'praise in the last 7 days'],
  overtime_hours: ['残業時間', 'overtime hours'],
};

// Which way a success criterion's metric is forecast to move.
export const DIRECTION_LABELS: Labels<(typeof DIRECTIONS)[number]> = {
  increase: ['増える', 'rises'],
  decrease: ['減る', 'falls'],
};

// Who carries out an order: `buddy`, or an API client by its name.
export const EXECUTOR_LABELS: Labels<'buddy'> = {
  buddy: ['バディ（指示を実際に行う人）', 'Buddy: whoever carries out the order'],
};

// The Dashboard's columns, as its charts' legends and axes name them.
export const DASHBOARD_COLUMN_LABELS: Labels<DashboardColumn> = {
  status: ['ステータス', 'Status'],
  discussions: ['議論数', 'Discussions'],
  phase: ['フェーズ', 'Phase'],
  latency_seconds: ['所要時間（秒）', 'Time taken (s)'],
  target_seconds: ['目標（秒）', 'Target (s)'],
  confidence_phase: ['フェーズ', 'Phase'],
  stated_confidence: ['表明信頼度', 'Stated confidence'],
  computed_confidence: ['算出信頼度', 'Computed confidence'],
  week: ['週', 'Week'],
  // The forecast verdict's rates (what worked is the effect, not charted here).
  confirmed: ['予測どおり', 'Forecast confirmed'],
  rejected: ['予測は外れ', 'Forecast missed'],
  inconclusive: ['予測の判定は保留', 'Forecast inconclusive'],
  day: ['日', 'Day'],
  tokens: ['トークン数', 'Tokens'],
  cost_usd: ['コスト（USD）', 'Cost (USD)'],
};

// An Inbox item's and a directive's state, as the sidebar shows and filters them (the Inbox and Directives tabs).
export const INBOX_STATES = INBOX_STATUSES;
export const INBOX_STATE_LABELS: Labels<(typeof INBOX_STATES)[number]> = {
  unread: ['未読', 'Unread'],
  read: ['既読', 'Read'],
  responded: ['返信済み', 'Replied'],
  archived: ['アーカイブ', 'Archived'],
};
export const DIRECTIVE_STATES = DIRECTIVE_STATUSES;
export const DIRECTIVE_STATE_LABELS: Labels<(typeof DIRECTIVE_STATES)[number]> = {
  active: ['有効', 'Active'],
  consumed: ['受け取り済み', 'Received'],
  cancelled: ['取り消し', 'Cancelled'],
};

// A member's recognition_preference (Members profile): how they like to be praised.
export const RECOGNITION_PREFERENCES = ['PUBLIC', 'PRIVATE', 'UNKNOWN'] as const;
export const RECOGNITION_LABELS: Labels<(typeof RECOGNITION_PREFERENCES)[number]> = {
  PUBLIC: ['人前での称賛', 'praise in public'],
  PRIVATE: ['個別の称賛', 'praise in private'],
  UNKNOWN: ['不明', 'unknown'],
};
