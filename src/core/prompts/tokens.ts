// Token estimates for text no provider counted (rule-based agents, prompts before sending).

// The ranges counted as one token a character: CJK punctuation, kana and ideographs, compatibility ideographs and
// full-width forms.
export function isCjk(c: number): boolean {
  return (c >= 0x3000 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef);
}

// Roughly one token per CJK character and one per four other characters, as common tokenizers do.
export function estimateTokens(text: string): number {
  let cjk = 0;
  for (let i = 0; i < text.length; i++) if (isCjk(text.charCodeAt(i))) cjk++;
  return cjk + Math.ceil((text.length - cjk) / 4);
}
