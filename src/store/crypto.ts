// SHA-256 of a string's UTF-8 bytes as lowercase hex, through the host port (Utilities in Apps Script).
import { ports } from '../ports.js';

export function sha256Hex(text: string): string {
  return ports().host.sha256Hex(text);
}
