// Byte helpers shared by the host: UTF-8 length.

export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
