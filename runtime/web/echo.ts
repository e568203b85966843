// The echo URL a web app's answer is fetched from after Apps Script's 302 (script.googleusercontent.com there):
// GET only, readable for a short time under a random key, served from another origin than /exec.
import crypto from 'node:crypto';
import { type HttpRoute, notFound, sendText } from './route-table.js';

export interface EchoBody {
  mimeType: string;
  body: string;
}

export const ECHO_PATH = '/echo';
const ECHO_TTL_MS = 60_000;

export class EchoStore {
  private readonly entries = new Map<string, EchoBody & { until: number }>();

  constructor(
    private readonly ttlMs = ECHO_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  // Keeps an answer and returns the key that reads it; expired answers are dropped as new ones arrive.
  put(answer: EchoBody): string {
    const now = this.now();
    for (const [k, e] of this.entries) if (e.until <= now) this.entries.delete(k);
    const key = crypto.randomBytes(32).toString('base64url');
    this.entries.set(key, { mimeType: answer.mimeType, body: answer.body, until: now + this.ttlMs });
    return key;
  }

  get(key: string): EchoBody | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return { mimeType: e.mimeType, body: e.body };
  }
}

// GET /echo?user_content_key=KEY: the answer with its mime type; an unknown or expired key is a 404 page.
export function echoRoute(store: EchoStore): HttpRoute {
  return {
    path: ECHO_PATH,
    methods: ['GET', 'HEAD'],
    handle: ({ res, url }) => {
      const answer = store.get(url.searchParams.get('user_content_key') ?? '');
      if (!answer) return notFound(res);
      sendText(res, 200, answer.mimeType, answer.body);
    },
  };
}
