// The kinds of trigger a new spreadsheet's Settings offer (triggers.types), with their labels: the default a learning
// names a trigger type by when it is given no label from Settings.
export const DEFAULT_TRIGGER_TYPES = [
  { type: 'kpi_decline', label_ja: 'KPI の低下', label_en: 'KPI decline' },
  { type: 'overwork', label_ja: '働きすぎの兆候', label_en: 'Signs of overwork' },
  { type: 'motivation', label_ja: 'モチベーションの変化', label_en: 'Change in motivation' },
  { type: 'manual', label_ja: 'その他の相談', label_en: 'Other request' },
];
