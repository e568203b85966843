// Messages as stored, from Messages rows read anywhere: the runtime's workbook or the in-memory one.

export interface Message {
  message_id: string;
  phase: number;
  speaker: string;
  message_type: string;
  content: any;
  metadata: any;
}

// Each message's chunks of message_json, in chunk order, joined and parsed.
export function messagesOf(rows: readonly Record<string, unknown>[], discussion?: string): Message[] {
  const parts: Record<string, { chunk: number; json: string }[]> = {};
  for (const r of rows)
    if (!discussion || r.discussion_id === discussion)
      (parts[String(r.message_id)] ??= []).push({ chunk: Number(r.chunk), json: String(r.message_json) });
  return Object.keys(parts)
    .sort()
    .map((id) =>
      JSON.parse(
        parts[id]
          .sort((a, b) => a.chunk - b.chunk)
          .map((p) => p.json)
          .join(''),
      ),
    );
}
