// PropertiesService's stores with Apps Script's quotas: 8,000 B per property, 500 KB per store.
import { utf8Length } from './bytes.js';

// Apps Script documents 9 KB per value, and writes of about 8,066 B of value have been seen to fail. The
// pessimistic reading: at most 8,000 B per property, its key's UTF-8 bytes counted with its value's.
const MAX_PROPERTY_BYTES = 8000;
const MAX_STORE_BYTES = 500 * 1024;

export class QuotaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Exception';
  }
}

export class PropertyStore {
  readonly data = new Map<string, string>();

  private size(extra?: Map<string, string>): number {
    let n = 0;
    for (const [k, v] of extra ?? this.data) n += utf8Length(k) + utf8Length(v);
    return n;
  }

  get(key: string): string | null {
    return this.data.has(key) ? this.data.get(key)! : null;
  }

  all(): Record<string, string> {
    return Object.fromEntries(this.data);
  }

  // Applies all changes or none: Apps Script rejects the whole call when one value is too large.
  set(entries: Record<string, string>, deleteAllOthers = false): void {
    const next = new Map(deleteAllOthers ? [] : this.data);
    for (const [k, raw] of Object.entries(entries)) {
      const v = String(raw);
      if (!k) throw new QuotaError('Invalid argument: key');
      if (utf8Length(k) + utf8Length(v) > MAX_PROPERTY_BYTES) throw new QuotaError('Argument too large: value');
      next.set(k, v);
    }
    if (this.size(next) > MAX_STORE_BYTES) {
      throw new QuotaError(
        'You have exceeded the property storage quota. Please remove some properties and try again.',
      );
    }
    this.data.clear();
    for (const [k, v] of next) this.data.set(k, v);
  }

  delete(key: string): void {
    this.data.delete(key);
  }

  clear(): void {
    this.data.clear();
  }
}
