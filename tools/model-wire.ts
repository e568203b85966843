// The OpenAI, Anthropic and Gemini wire formats, as the local model server reads requests and writes answers.

export type Vendor = 'openai' | 'anthropic' | 'gemini';

export type Json = Record<string, any>;

export function vendorOf(path: string): Vendor {
  if (path.endsWith(':generateContent')) return 'gemini';
  if (path.endsWith('/messages')) return 'anthropic';
  return 'openai';
}

export function schemaOf(vendor: Vendor, body: Json): any {
  if (vendor === 'anthropic') return body.tools?.[0]?.input_schema;
  if (vendor === 'gemini') return body.generationConfig?.responseSchema;
  return body.response_format?.json_schema?.schema;
}

export function textsOf(vendor: Vendor, body: Json): { system: string; user: string } {
  if (vendor === 'anthropic')
    return {
      system: (body.system ?? []).map((b: Json) => b.text).join('\n'),
      user: (body.messages ?? [])
        .map((m: Json) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
        .join('\n'),
    };
  if (vendor === 'gemini')
    return {
      system: (body.systemInstruction?.parts ?? []).map((p: Json) => p.text).join('\n'),
      user: (body.contents ?? []).flatMap((c: Json) => c.parts.map((p: Json) => p.text)).join('\n'),
    };
  const msgs: Json[] = body.messages ?? [];
  return {
    system: msgs
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n'),
    user: msgs
      .filter((m) => m.role !== 'system')
      .map((m) => m.content)
      .join('\n'),
  };
}

export function envelope(vendor: Vendor, text: string, model: string, usage: { input: number; output: number }): Json {
  if (vendor === 'anthropic') {
    let input: unknown = text;
    try {
      input = JSON.parse(text);
    } catch {
      // Malformed output stays a string in the tool input, as a confused model's would.
    }
    return {
      id: 'msg_local',
      type: 'message',
      role: 'assistant',
      model,
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: 'toolu_local', name: 'answer', input }],
      usage: {
        input_tokens: usage.input,
        output_tokens: usage.output,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    };
  }
  if (vendor === 'gemini') {
    return {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: usage.input,
        candidatesTokenCount: usage.output,
        totalTokenCount: usage.input + usage.output,
      },
      modelVersion: model,
    };
  }
  return {
    id: 'chatcmpl-local',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop' }],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}
