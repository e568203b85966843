// The web API's envelope: paths, roles, and the JSON error format of SPEC §11.

export type Role = 'coordinator' | 'worker' | 'viewer' | 'admin';

export interface ApiError {
  error: { code: string; message: string; details?: unknown };
  status: number;
}

export function apiError(status: number, code: string, message: string, details?: unknown): ApiError {
  return details === undefined ? { error: { code, message }, status } : { error: { code, message, details }, status };
}

export const ROUTE_ROLES: Record<string, Role[]> = {
  'GET /status': ['viewer', 'worker', 'coordinator', 'admin'],
};

// Compares two equal-purpose strings without stopping at the first difference.
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

export function routeKey(method: 'GET' | 'POST', path: string): string {
  return `${method} ${path.replace(/\/+$/, '') || '/'}`;
}
