// kaigi run's transcript in the workbook's language: members and agents by name, every enum by its label, and for a
// closed discussion, last, what memory learned, the orders' execution, the prediction error and the verdict.
import type { Lang } from '../src/core/i18n.js';
import { label } from '../src/core/labels.js';
import { formatInZone, zoneLabel } from '../src/core/time-display.js';
import type { LoopReport } from './demo-loop.js';

export interface TranscriptView {
  discussion_id: string;
  status: string;
  priority: string;
  trigger: { type: string; target_user_id: string };
  // ISO UTC, as the Discussion Log holds them; shown in the workbook's zone.
  created_at?: string;
  closed_at?: string;
  messages: {
    phase: number;
    speaker: string;
    speaker_name_ja: string;
    speaker_name_en: string;
    type: string;
    brief: string;
    processing_ms: number;
    stated: number | null;
    computed: number | null;
    fallback_level: number;
    error_code: string;
    timestamp: string;
    tokens: number;
    cost_usd?: number;
  }[];
  summary: {
    decision_id: string;
    actions: { action_type: string; intensity: string }[];
    target_agents: string[];
    review_date: string;
    execution_status: string;
  } | null;
  orders: { order_id: string; action_type: string; status: string }[];
  outcome: {
    verdict: string;
    headline?: { ja: string; en: string };
    prediction_error: number | null;
    data_points: number;
    learned: { agent_id: string; content: string; confidence: number }[];
  } | null;
}

export interface Names {
  lang: Lang;
  member: string;
  trigger: string;
  agents: Record<string, string>;
  // The workbook's (spreadsheet's) time zone: every time the transcript shows is in it, and it is named.
  zone: string;
}

interface Totals {
  phases: { phase: number; ms: number; speakers: string[]; started_at?: string | null }[];
  messages: number;
  tokens: number;
  cost_usd: number;
  fallbacks: Record<string, number>;
  workbook: string;
}

// Padded to a column by display width: a Japanese character takes two.
const width = (s: string) => [...s].reduce((w, c) => w + (c.charCodeAt(0) >= 0x2e80 ? 2 : 1), 0);
const pad = (s: string, n: number) => s + ' '.repeat(Math.max(1, n - width(s)));

// A message's main text as the speaker wrote it; an order and a report, which are Kaigi's own words, by their labels.
function said(
  v: TranscriptView,
  m: TranscriptView['messages'][number],
  n: Names,
  T: (ja: string, en: string) => string,
) {
  const lang = n.lang;
  if (m.type === 'EXECUTION_ORDER' && v.summary) {
    const s = v.summary;
    const acts = s.actions.map(
      (a) => `${label('action_type', a.action_type, lang)} (${label('intensity', a.intensity, lang)})`,
    );
    const who = s.target_agents.map((x) => (x === 'buddy' ? label('executor', x, lang) : n.agents[x] || x));
    return T(
      `${acts.join('、')}。見直し ${s.review_date}。実行: ${who.join('、')}`,
      `${acts.join(', ')}; review on ${s.review_date}; carried out by ${who.join(', ')}`,
    );
  }
  const text = m.brief.replace(/^\[[^\]]*\]\s*/, '');
  const report = /^ORDER_([A-Z_]+)$/.exec(text);
  if (m.type === 'ACKNOWLEDGEMENT' && report)
    return T('指示の報告: ', 'Order reported: ') + label('order_status', report[1], lang);
  return text.slice(0, 160);
}

// When the discussion opened (and closed) in the workbook's zone, which the line names.
function timesLine(v: TranscriptView, n: Names): string {
  const T = (ja: string, en: string) => (n.lang === 'ja' ? ja : en);
  const at = (iso: string | undefined) => formatInZone(iso, n.zone, n.lang);
  const closed = v.closed_at ? T(` · 終了: ${at(v.closed_at)}`, ` · closed: ${at(v.closed_at)}`) : '';
  const opened = v.created_at ? T(`開始: ${at(v.created_at)}`, `Opened: ${at(v.created_at)}`) : '';
  return `${opened}${closed}${opened || closed ? ' · ' : ''}${T('タイムゾーン: ', 'time zone: ')}${zoneLabel(n.zone, n.lang)}`;
}

export function transcriptText(v: TranscriptView, t: Totals, n: Names): string {
  const lang = n.lang;
  const T = (ja: string, en: string) => (lang === 'ja' ? ja : en);
  const lines = [
    `${v.discussion_id} · ${label('status', v.status, lang)}`,
    T(
      `対象: ${n.member} · きっかけ: ${n.trigger} · 優先度: ${label('priority', v.priority, lang)}`,
      `About: ${n.member} · Trigger: ${n.trigger} · Priority: ${label('priority', v.priority, lang)}`,
    ),
    timesLine(v, n),
    '',
  ];
  for (const p of t.phases) {
    const k = p.speakers.length;
    // The phase's start as a wall clock of the workbook's zone, its date and zone named on the line above.
    const from = p.started_at ? formatInZone(p.started_at, n.zone, lang, { date: false, seconds: true }) : '';
    lines.push(
      T(
        `── フェーズ ${p.phase}（${from ? `${from} 開始、` : ''}${p.ms} ms、発言者 ${k}）`,
        `── Phase ${p.phase}  (${from ? `from ${from}, ` : ''}${p.ms} ms, ${k} speaker${k === 1 ? '' : 's'})`,
      ),
    );
    for (const m of v.messages.filter((x) => x.phase === p.phase)) {
      const name = (lang === 'ja' ? m.speaker_name_ja : m.speaker_name_en) || m.speaker;
      const speaker = m.speaker === 'buddy' ? T('バディ', 'Buddy') : name;
      const conf =
        m.stated !== null || m.computed !== null
          ? T(
              ` 確信度 自己=${m.stated ?? '-'} 算出=${m.computed ?? '-'}`,
              ` confidence stated=${m.stated ?? '-'} computed=${m.computed ?? '-'}`,
            )
          : '';
      const fb = m.fallback_level ? ` [${label('fallback', m.fallback_level, lang)}]` : '';
      const err = m.error_code ? ` ${m.error_code}` : '';
      lines.push(
        `  ${pad(speaker, 24)}${pad(label('message_type', m.type, lang), 22)}${conf}${fb}${err}  ${m.processing_ms} ms`,
      );
      lines.push(`      ${said(v, m, n, T)}`);
    }
  }
  const answers = Object.keys(t.fallbacks)
    .sort()
    .map((k) => `${t.fallbacks[k]} ${label('fallback', Number(k), lang)}`);
  lines.push(
    '',
    T(
      `発言 ${t.messages}、トークン ${t.tokens}、費用 $${t.cost_usd}、回答: ${answers.join('、')}`,
      `${t.messages} messages, ${t.tokens} tokens, $${t.cost_usd}; answers: ${answers.join(', ')}`,
    ),
    T(`ワークブック: ${t.workbook}`, `workbook: ${t.workbook}`),
  );
  return lines.join('\n');
}

// After the decision (kaigi run --until closed): the demo's reports and KPI if the demo loop ran, then the outcome,
// the verdict on the last line.
export function outcomeText(v: TranscriptView, loop: LoopReport | null, n: Names): string {
  const lang = n.lang;
  const T = (ja: string, en: string) => (lang === 'ja' ? ja : en);
  const lines = ['', '', T('── 決定のあと', '── After the decision')];
  for (const r of loop?.reports ?? [])
    lines.push(
      T(
        `  ${label('action_type', r.action_type, lang)}（${r.order_id}）→ ${label('order_status', r.status, lang)}（デモの実行者が報告）`,
        `  ${label('action_type', r.action_type, lang)} (${r.order_id}) → ${label('order_status', r.status, lang)} (reported by the demo executor)`,
      ),
    );
  if (loop?.kpi.length)
    lines.push(
      `  ${T('届いた KPI', 'KPI in')} (${label('metric', 'contacts', lang)}): ${loop.kpi.map((k) => `${k.day.slice(5)} ${k.contacts}`).join(', ')}`,
    );
  const o = v.outcome;
  if (!o) {
    lines.push(T('  判定: まだ測定されていません', '  Verdict: not measured yet'));
    return `${lines.join('\n')}\n`;
  }
  // The effect first: whether the actions helped, with the forecast beside it.
  if (o.headline) lines.push(`  ${T('効果', 'Effect')}: ${T(o.headline.ja, o.headline.en)}`);
  lines.push(
    T(
      `  記憶したこと: 新しい学び ${o.learned.length} 件`,
      `  What memory learned: ${o.learned.length} new learning${o.learned.length === 1 ? '' : 's'}`,
    ),
  );
  for (const l of o.learned.slice(0, 10))
    lines.push(
      `    ${l.agent_id ? n.agents[l.agent_id] || l.agent_id : T('共有', 'Shared')}: ${l.content.slice(0, 120)} (${T('確信度', 'confidence')} ${l.confidence})`,
    );
  // Earlier learnings this verdict moved (the new ones are listed above).
  const moved = (loop?.learnings ?? []).filter((c) => c.change.indexOf('new') !== 0).length;
  if (moved)
    lines.push(T(`  確信度が動いた既存の学び: ${moved} 件`, `  Earlier learnings whose confidence moved: ${moved}`));
  const orders = v.orders.map(
    (x) => `${label('action_type', x.action_type, lang)} ${label('order_status', x.status, lang)}`,
  );
  const execution = v.summary ? label('execution_status', v.summary.execution_status, lang) : '-';
  lines.push(
    `  ${T('指示の実行', "Orders' execution")}: ${execution}${orders.length ? ` (${orders.join(', ')})` : ''}`,
    `  ${T('予測誤差', 'Prediction error')}: ${o.prediction_error === null ? T('測定なし', 'not measured') : o.prediction_error} (${T('データ点', 'data points')} ${o.data_points})`,
    `  ${T('予測の判定', 'Forecast verdict')}: ${label('verdict', o.verdict, lang)}`,
  );
  return `${lines.join('\n')}\n`;
}
