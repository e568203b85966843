// Fast paths for gas/bytes.ts through the bridge (Node's native UTF-8 and base64), taken only where the bytes agree.
import { getBridge } from './bridge.js';
import { base64Decode, base64Encode, bytesOf, singleByte, utf8Decode } from './bytes.js';

// A high surrogate with no low one after it, or a low one with no high one before it. utf8Encode writes such a unit as
// three bytes of its own where Node writes U+FFFD's, so a text holding one keeps the byte-at-a-time path.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// base64Encode(bytesOf(data, charset)): a prompt of 20 KB sent with UrlFetchApp took about 4 ms byte by byte in a
// fresh context, a digest's text about as much; Node does it in microseconds.
export function base64Of(data: string | number[], charset?: string): string {
  if (typeof data === 'string' && !singleByte(charset) && !LONE_SURROGATE.test(data))
    return getBridge().utf8Base64(data);
  return base64Encode(bytesOf(data, charset));
}

// utf8Decode(base64Decode(b64)): Node's decoder when the bytes are well-formed UTF-8, where both read the same code
// points; utf8Decode otherwise, since it reads malformed bytes its own way.
export function utf8OfBase64(b64: string): string {
  const text = getBridge().utf8OfBase64(b64);
  return text ?? utf8Decode(base64Decode(b64));
}
