// SHA-256 through Utilities, as lowercase hex.

export function sha256Hex(text: string): string {
  const bytes = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8);
  let out = '';
  for (const b of bytes) out += ((b + 256) % 256).toString(16).padStart(2, '0');
  return out;
}
