// What an error answer may repeat of a request: short plain text only, never a token. An answer ends up in a
// client's log, a proxy's or a CI transcript, so a body, a long key or an API token sent by mistake (curl's JSON
// arriving as one form key, token and all) must not be written there again by Kaigi.

// API tokens are `kaigi_` and 64 hex digits (src/app/api/clients.ts); 8 digits already count, so a token cut short
// (an MCP method name is cut to 64 characters) is caught too.
const TOKEN_LIKE = /kaigi_[0-9a-f]{8,}/gi;
const TOKEN_HINT = /kaigi_[0-9a-f]{8}/i;
// Longer text is the client's own data rather than a name it misspelt: an error says what was wrong, not what came.
const MAX_ECHO_CHARS = 40;
// Control characters, quotes and braces: text with them is a body or markup, not a field's name or a value's.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const NOT_PLAIN = /[\u0000-\u001f\u007f"{}[\]\\<>]/;

// True when `text` may appear in an error as it came.
export function echoable(text: string): boolean {
  return text.length <= MAX_ECHO_CHARS && !NOT_PLAIN.test(text) && !TOKEN_HINT.test(text);
}

// The text when it may be repeated, else `instead` (which says what it was without saying it).
export function echoInput(text: unknown, instead: string): string {
  const s = String(text);
  return echoable(s) ? s : instead;
}

// The same, quoted: `"text"`.
export function quoteInput(text: unknown, instead: string): string {
  const s = String(text);
  return echoable(s) ? JSON.stringify(s) : instead;
}

// A field path's segment as an error may name it: a key the client made up and cannot be repeated becomes `…`.
export function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'string' ? (echoable(p) ? p : '…') : String(p))).join('.');
}

// zod's unrecognized_keys issue, said without repeating a key that may not be: `unknown field "prority"`, or
// `2 unknown fields (not repeated: longer than 40 characters, or not plain text)`.
export function unknownKeysMessage(keys: readonly string[]): string {
  const shown = keys.filter(echoable);
  const hidden = keys.length - shown.length;
  const parts: string[] = [];
  if (shown.length)
    parts.push(`unknown field${shown.length > 1 ? 's' : ''} ${shown.map((k) => JSON.stringify(k)).join(', ')}`);
  if (hidden)
    parts.push(
      `${hidden} ${shown.length ? 'more ' : ''}unknown field${hidden > 1 ? 's' : ''} (not repeated: longer than ${MAX_ECHO_CHARS} characters, or not plain text)`,
    );
  return parts.join('; ');
}

// Every string in `value` with token-like text (and the request's own token, when long enough to be one) replaced:
// what each error answer goes through before it leaves, whatever a message quoted.
export function withoutTokens<T>(value: T, token?: string): T {
  const own = token && token.length >= 16 ? token : '';
  const clean = (s: string): string => {
    const out = s.replace(TOKEN_LIKE, 'kaigi_…');
    return own && out.indexOf(own) >= 0 ? out.split(own).join('(the token)') : out;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return clean(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      // Defined, not assigned: a key such as __proto__ stays a key.
      for (const k of Object.keys(v))
        Object.defineProperty(out, clean(k), {
          value: walk((v as Record<string, unknown>)[k]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
