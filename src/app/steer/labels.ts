// Readable labels for the 14 message types, in both languages (SPEC §9: 状況報告, 専門家意見, … / Situation report, …).
import type { MessageType } from '../../core/messages.js';

const TYPE_LABELS: Record<MessageType, { ja: string; en: string }> = {
  SITUATION_REPORT: { ja: '状況報告', en: 'Situation report' },
  SPECIALIST_OPINION: { ja: '専門家意見', en: 'Specialist opinion' },
  PERSPECTIVE_POSITIVE: { ja: '前向きな視点', en: 'Positive perspective' },
  PERSPECTIVE_NEGATIVE: { ja: '批判的な視点', en: 'Critical perspective' },
  PERSPECTIVE_HUMAN: { ja: '現場の視点', en: 'Human perspective' },
  GOVERNANCE_ETHICS: { ja: '倫理チェック', en: 'Ethics check' },
  GOVERNANCE_LEGAL: { ja: '法務チェック', en: 'Legal check' },
  DECISION_DELIBERATION: { ja: '審議', en: 'Deliberation' },
  EXECUTION_ORDER: { ja: '実行指示', en: 'Execution order' },
  FEEDBACK_REQUEST: { ja: '確認の依頼', en: 'Feedback request' },
  FEEDBACK_RESPONSE: { ja: '確認への回答', en: 'Feedback response' },
  OBJECTION: { ja: '異議', en: 'Objection' },
  ACKNOWLEDGEMENT: { ja: '受領', en: 'Acknowledgement' },
  ERROR: { ja: 'エラー', en: 'Error' },
};

export function typeLabel(type: string): { ja: string; en: string } {
  return TYPE_LABELS[type as MessageType] ?? { ja: type, en: type };
}
