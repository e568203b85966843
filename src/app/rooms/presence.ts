// Presence: a member is online while its name, or the API client it entered with, called within the window.
import { lastSeen, touchSeen } from '../../store/presence-cache.js';
import { isOnline } from '../../core/api/rooms.js';
import type { MemberRecord } from './room-data.js';
import { ports } from '../../ports.js';

// Records a call by a client, under an agent name too when the call gave one.
export function touchPresence(
  client: string,
  agentName: string | undefined,
  windowSeconds: number,
  now = ports().clock.now(),
): void {
  const names: { kind: 'agent' | 'client'; name: string }[] = [{ kind: 'client', name: client }];
  if (agentName) names.push({ kind: 'agent', name: agentName });
  touchSeen(names, now, windowSeconds);
}

// Which of these members are online, by member key; one cache read for all of them.
export function onlineKeys(
  members: readonly MemberRecord[],
  windowSeconds: number,
  now = ports().clock.now(),
): Set<string> {
  const agents = uniq(members.map((m) => m.agentName));
  const clients = uniq(members.map((m) => m.client).filter(Boolean));
  const seen = lastSeen([
    ...agents.map((name) => ({ kind: 'agent' as const, name })),
    ...clients.map((name) => ({ kind: 'client' as const, name })),
  ]);
  // Maps, not plain objects: a member named __proto__ set as a key would change the object's prototype instead
  // (and then always read as offline).
  const agentSeen = new Map<string, number | null>();
  const clientSeen = new Map<string, number | null>();
  agents.forEach((a, i) => {
    agentSeen.set(a, seen[i]);
  });
  clients.forEach((c, i) => {
    clientSeen.set(c, seen[agents.length + i]);
  });
  const out = new Set<string>();
  for (const m of members) {
    const times = [agentSeen.get(m.agentName) ?? null, m.client ? (clientSeen.get(m.client) ?? null) : null];
    if (isOnline(times, now, windowSeconds)) out.add(m.key);
  }
  return out;
}

function uniq(xs: string[]): string[] {
  return xs.filter((x, i) => xs.indexOf(x) === i);
}
