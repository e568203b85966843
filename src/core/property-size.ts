// What one Script Property may hold: Apps Script documents 9 KB a value, but writes of about 8,066 B
// have been seen to fail, so Kaigi keeps every property at 8,000 B of UTF-8, its key counted with its value.
import { utf8Bytes } from './api/api.js';
import { StateError } from './errors.js';

export const MAX_PROPERTY_BYTES = 8000;

export function propertyBytes(key: string, value: string): number {
  return utf8Bytes(key) + utf8Bytes(value);
}

// Refuses, before anything is written, values of which one would not fit: the error names the property and its
// size, never its content.
export function checkPropertySizes(values: Record<string, string>): void {
  for (const key of Object.keys(values)) {
    const bytes = propertyBytes(key, values[key]);
    if (bytes > MAX_PROPERTY_BYTES)
      throw new StateError(
        `The Script Property ${key} would hold ${bytes} bytes, over the ${MAX_PROPERTY_BYTES} one property keeps; ` +
          'nothing was written.',
        'property_too_large',
      );
  }
}
