// Readable labels for the 14 message types, in both languages, from the one table in src/core/label-tables.ts.
import { label } from '../../core/labels.js';

export function typeLabel(type: string): { ja: string; en: string } {
  return { ja: label('message_type', type, 'ja'), en: label('message_type', type, 'en') };
}
