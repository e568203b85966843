// User-facing strings in Japanese and English; the user's locale picks one.
import { hasOwn } from './json-guard.js';

export type Lang = 'ja' | 'en';

const STRINGS = {
  menu: { ja: 'Kaigi', en: 'Kaigi' },
  startDiscussion: { ja: '議論を開始', en: 'Start a discussion' },
  refreshDashboard: { ja: 'ダッシュボードを更新', en: 'Refresh the Dashboard' },
  apiClients: { ja: 'API クライアント', en: 'API clients' },
  moreTools: { ja: 'その他のツール', en: 'More tools' },
  startTitle: { ja: '議論を開始', en: 'Start a discussion' },
  openSidebar: { ja: 'サイドバーを開く', en: 'Open sidebar' },
  runQueue: { ja: 'キューを今すぐ実行', en: 'Run the queue now' },
  setup: { ja: 'セットアップ／修復', en: 'Set up / repair' },
  settings: { ja: '設定と API キー', en: 'Settings & API keys' },
  help: { ja: 'ヘルプ', en: 'Help' },
  takeOverWorkers: { ja: 'ワーカーを引き継ぐ', en: 'Take over the workers' },
  handOverWorkers: { ja: 'ワーカーを手放す', en: 'Hand over the workers' },
  verifyAudit: { ja: '監査ログを検証', en: 'Verify the audit log' },
  seedDemo: { ja: 'デモデータを投入', en: 'Load demo data' },
  runWatcher: { ja: 'KPI を今すぐ監視', en: 'Watch the KPI now' },
  auditOk: { ja: '監査ログは改ざんされていません', en: 'The audit log is intact' },
  auditBroken: { ja: '監査ログの不整合を検出しました', en: 'The audit log is broken' },
  sidebarTitle: { ja: 'Kaigi 会議', en: 'Kaigi council' },
  settingsTitle: { ja: 'Kaigi の設定', en: 'Kaigi settings' },
  setupDone: { ja: 'セットアップが完了しました', en: 'Setup finished' },
  setupSummary: {
    ja: '作成したタブ: {created}、修復したタブ: {repaired}、追加した設定: {settings}',
    en: 'Tabs created: {created}, repaired: {repaired}; settings added: {settings}',
  },
  setupMetrics: {
    ja: '指標表に {metrics} を観測値の範囲とともに追加しました。設定の kpi.metrics で向きを確認してください',
    en: 'Metric table: added {metrics} with their observed ranges; check their direction in Settings kpi.metrics',
  },
  setupZoneSet: {
    ja: 'スプレッドシートのタイムゾーンをスクリプトと同じ {zone} にしました（新しいスプレッドシートでした）',
    en: "Spreadsheet time zone set to {zone}, the script's (the spreadsheet was new)",
  },
  setupZoneKept: {
    ja: 'スプレッドシートのタイムゾーン {zone} はそのままです（スクリプトは {script}）。データがあるため、日時のセルは {zone} で読み書きし、日付はスクリプトの暦で数えます',
    en: "Spreadsheet time zone {zone} kept (the script's is {script}): it already holds data, so date cells are written and read in {zone}, and days are counted on the script's calendar",
  },
  setupZoneSame: {
    ja: 'タイムゾーン: {zone}（スプレッドシートとスクリプトで同じ）',
    en: 'Time zone: {zone} (the spreadsheet and the script agree)',
  },
  // {what}: the function; {need}: the role it needs; {role}: the caller's.
  forbidden: {
    ja: '{what} には {need} の権限が必要です（あなたの権限: {role}）。スプレッドシートのオーナーか管理者に、設定の access.admins または access.coordinators への追加を依頼してください。',
    en: '{what} needs the {need} role (yours: {role}). Ask the spreadsheet owner or an admin to add you to access.admins or access.coordinators in Settings.',
  },
  helpText: {
    ja: 'Kaigi は 14 のエージェントが 6 フェーズで議論し、すべての発言と判断をこのスプレッドシートに記録します。メニューの「セットアップ／修復」でタブとトリガーを整え、サイドバーから議論を確認できます。',
    en: 'Kaigi is a council of 14 agents that deliberates in six phases and records every message and decision in this spreadsheet. Use "Set up / repair" to create the tabs and triggers, and the sidebar to follow discussions.',
  },
  // The rules' canned reflection (src/core/memory/reflection-rules.ts): {verdict}, {rec}, {hits}, {n}, {rate}.
  reflectReasoning: {
    ja: '判定は {verdict}、推奨 {rec} は{adopted}',
    en: 'Verdict {verdict}; recommendation {rec} {adopted}',
  },
  reflectAdopted: { ja: '採用', en: 'adopted' },
  reflectNotAdopted: { ja: '不採用', en: 'not adopted' },
  reflectRecord: { ja: '。これまでの的中 {hits}/{n}（{rate}%）', en: '; record so far {hits} of {n} right ({rate} %)' },
  reflectFirst: { ja: '。これが最初の判定', en: '; the first verdict on its advice' },
  reflectPaidOff: { ja: '{rec} の提案が成果につながった', en: 'Recommending {rec} paid off' },
  reflectStrongRecord: {
    ja: '的中率 {rate}% の実績に沿った提案ができた',
    en: 'Advice in line with a record of {rate} % right',
  },
  reflectWeakRecord: {
    ja: '的中率 {rate}% と低いなか、議論に必要な視点は出せた',
    en: 'Contributed a needed view, on a record of only {rate} % right',
  },
  reflectView: { ja: '議論に必要な視点を出せた', en: 'Contributed a needed view' },
} as const;

export type StringKey = keyof typeof STRINGS;

export function langOf(locale: string | undefined): Lang {
  return locale && locale.toLowerCase().indexOf('ja') === 0 ? 'ja' : locale ? 'en' : 'ja';
}

export function t(key: StringKey, lang: Lang): string {
  return STRINGS[key][lang];
}

// A string with its {name} placeholders filled.
export function tf(key: StringKey, lang: Lang, values: Record<string, string | number>): string {
  return t(key, lang).replace(/\{(\w+)\}/g, (all, k: string) => (hasOwn(values, k) ? String(values[k]) : all));
}
