// UrlFetchApp as Google's servers run it: no loopback, private or link-local addresses, a fixed 60 s per request,
// and a fetchAll that returns only when its last request has ended.
import dns from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalAddress, isLocalUrl, routeFor } from '../../../runtime/host/http.js';
import { gas, gasError, withRuntime } from '../../helpers.js';

let server: http.Server;
let base = '';
let port = 0;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url!);
    const u = new URL(req.url!, 'http://x');
    if (u.pathname === '/hang') return; // never answers; closed in afterAll
    if (u.pathname === '/trickle') {
      // A byte every 100 ms for 3 s: never idle long, but longer than the limit in total.
      res.writeHead(200, { 'content-type': 'text/plain' });
      let n = 0;
      const t = setInterval(() => {
        if (res.destroyed) return clearInterval(t);
        res.write('.');
        if (++n === 30) {
          clearInterval(t);
          res.end();
        }
      }, 100);
      return;
    }
    if (u.pathname === '/out') {
      res.writeHead(302, { location: String(u.searchParams.get('to')) });
      return void res.end();
    }
    setTimeout(
      () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`ok ${u.pathname}`);
      },
      Number(u.searchParams.get('delay') ?? 0),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('addresses Google cannot reach', () => {
  it('refuses loopback, private and link-local addresses with Address unavailable, sending nothing', async () => {
    await withRuntime(async (rt) => {
      const urls = [
        `${base}/a`,
        `http://127.1:${port}/b`,
        `http://2130706433:${port}/c`,
        `http://0.0.0.0:${port}/d`,
        `http://[::1]:${port}/e`,
        `http://[::ffff:127.0.0.1]:${port}/f`,
        'http://10.1.2.3/',
        'http://172.16.0.1/',
        'http://172.31.255.254/',
        'http://192.168.1.1/',
        'http://100.64.0.1/',
        'http://169.254.169.254/computeMetadata/v1/',
        'https://[fe80::1]/',
        'https://[fd00::1]:8443/',
      ];
      const t0 = Date.now();
      for (const url of urls)
        expect(await gasError(rt, `UrlFetchApp.fetch('${url}');`)).toBe(`Address unavailable: ${url}`);
      // Refused before any connection: an unroutable 10.x address would otherwise hang until the time limit.
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(seen).toEqual([]);
      // muteHttpExceptions mutes HTTP statuses only, never a network error.
      expect(await gasError(rt, `UrlFetchApp.fetch('${base}/m', { muteHttpExceptions: true });`)).toBe(
        `Address unavailable: ${base}/m`,
      );
    });
  });

  it('resolves host names first: localhost is a DNS error there, a name resolving to a local address is refused', async () => {
    await withRuntime(async (rt) => {
      expect(await gasError(rt, `UrlFetchApp.fetch('http://localhost:${port}/x');`)).toBe(
        `DNS error: http://localhost:${port}/x`,
      );
      expect(await gasError(rt, `UrlFetchApp.fetch('http://LOCALHOST.:${port}/x');`)).toBe(
        `DNS error: http://LOCALHOST.:${port}/x`,
      );
      expect(await gasError(rt, "UrlFetchApp.fetch('http://no-such-host.invalid/');")).toBe(
        'DNS error: http://no-such-host.invalid/',
      );
      // This machine's own name, when the system resolves it to a local address (most containers and laptops).
      const me = os.hostname();
      const found = await dns.lookup(me, { all: true }).catch(() => []);
      if (found.length && found.every((a) => isLocalAddress(a.address)))
        expect(await gasError(rt, `UrlFetchApp.fetch('http://${me}:${port}/me');`)).toBe(
          `Address unavailable: http://${me}:${port}/me`,
        );
      expect(seen).toEqual([]);
    });
  });

  it('decides on every resolved address, and pins the connection to the one it checked', async () => {
    const lookup = (answers: Record<string, string[]>) => async (host: string) => {
      if (!answers[host]) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
      return answers[host].map((address) => ({ address, family: address.indexOf(':') >= 0 ? 6 : 4 }));
    };
    const dnsOf = lookup({
      'rebind.example': ['203.0.113.7', '127.0.0.1'],
      'nas.example': ['192.168.0.20'],
      'api.example': ['203.0.113.9', '2001:db8::9'],
    });
    await expect(routeFor('http://rebind.example/', [], dnsOf)).rejects.toThrow(
      'Address unavailable: http://rebind.example/',
    );
    await expect(routeFor('http://nas.example:8080/v1', [], dnsOf)).rejects.toThrow(
      'Address unavailable: http://nas.example:8080/v1',
    );
    await expect(routeFor('http://gone.example/', [], dnsOf)).rejects.toThrow('DNS error: http://gone.example/');
    expect(await routeFor('https://api.example/v1', [], dnsOf)).toEqual({ address: '203.0.113.9', family: 4 });
    // The allowance names an origin: the same host on another port or scheme is still refused.
    expect(await routeFor('http://nas.example:8080/v1/chat', ['http://nas.example:8080'], dnsOf)).toEqual({
      address: null,
      family: 0,
    });
    await expect(routeFor('http://nas.example:8081/', ['http://nas.example:8080/v1'], dnsOf)).rejects.toThrow(
      'Address unavailable',
    );
    expect(await isLocalUrl('http://nas.example:8080/v1', dnsOf)).toBe(true);
    expect(await isLocalUrl('https://api.example/v1', dnsOf)).toBe(false);
    expect(await isLocalUrl('http://localhost:11434/v1', dnsOf)).toBe(true);
  });

  it('knows the ranges to their edges', () => {
    const local = ['127.255.255.255', '10.255.255.255', '172.16.0.0', '172.31.255.255', '192.168.255.255'];
    const more = ['169.254.0.1', '100.127.255.255', '0.1.2.3', '::1', '::', 'fc00::1', 'fdff::1', 'fe80::1', 'febf::1'];
    for (const ip of [...local, ...more, '::ffff:10.0.0.1', '::ffff:7f00:1']) expect(isLocalAddress(ip), ip).toBe(true);
    const outside = [
      '11.0.0.1',
      '172.15.255.255',
      '172.32.0.0',
      '192.169.0.1',
      '169.255.0.1',
      '100.128.0.1',
      '8.8.8.8',
    ];
    for (const ip of [...outside, 'fe00::1', 'ff02::1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect(isLocalAddress(ip), ip).toBe(false);
  });

  it('reaches a local origin only when the runtime is given it, and never through a redirect elsewhere', async () => {
    const other = http.createServer((_q, res) => res.end('other'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      await withRuntime(
        async (rt) => {
          expect(await gas(rt, `return UrlFetchApp.fetch('${base}/hello').getContentText();`)).toBe('ok /hello');
          expect(await gasError(rt, `UrlFetchApp.fetch('${otherBase}/');`)).toBe(`Address unavailable: ${otherBase}/`);
          expect(await gasError(rt, `UrlFetchApp.fetch('http://localhost:${port}/');`)).toBe(
            `DNS error: http://localhost:${port}/`,
          );
          const hop = `${base}/out?to=${encodeURIComponent(`${otherBase}/secret`)}`;
          expect(await gasError(rt, `UrlFetchApp.fetch('${hop}');`)).toBe(`Address unavailable: ${otherBase}/secret`);
          // The allowance is the host's to give: the runtime's field, not something a script can reach.
          rt.allowLocalFetch = [];
          expect(await gasError(rt, `UrlFetchApp.fetch('${base}/hello');`)).toBe(`Address unavailable: ${base}/hello`);
        },
        { allowLocalFetch: [`${base}/v1`] },
      );
    } finally {
      await new Promise<void>((r) => other.close(() => r()));
    }
  });
});

describe('time', () => {
  it('gives each request a fixed 60 s that no fetch parameter changes', async () => {
    await withRuntime(
      async (rt) => {
        expect(rt.fetchTimeoutMs).toBe(60_000);
        const out = await gas(
          rt,
          `return UrlFetchApp.fetch('${base}/slow?delay=300', { timeout: 1, deadline: 0.001, muteHttpExceptions: true }).getContentText();`,
        );
        expect(out).toBe('ok /slow');
      },
      { allowLocalFetch: [base] },
    );
  });

  it('counts the limit over the whole request, not between two packets', async () => {
    // fetchTimeoutMs is the runtime's test-only knob (host side), so the limit shows in under a second.
    await withRuntime(
      async (rt) => {
        const t0 = Date.now();
        expect(await gasError(rt, `UrlFetchApp.fetch('${base}/trickle');`)).toBe(`Timeout: ${base}/trickle`);
        const took = Date.now() - t0;
        expect(took).toBeGreaterThanOrEqual(600);
        expect(took).toBeLessThan(2_500);
      },
      { allowLocalFetch: [base], fetchTimeoutMs: 600 },
    );
  });

  it('fetchAll with a hanging endpoint waits for it, then throws and loses every answer', async () => {
    await withRuntime(
      async (rt) => {
        const from = seen.length;
        const t0 = Date.now();
        const r = await rt.evaluate(
          `var got = null;
          try { got = UrlFetchApp.fetchAll([{ url: '${base}/one', muteHttpExceptions: true }, { url: '${base}/hang', muteHttpExceptions: true }, { url: '${base}/two?delay=100', muteHttpExceptions: true }]); }
          catch (e) { return { error: e.message, got: got }; }
          return { error: null, got: got.length };`,
        );
        const took = Date.now() - t0;
        expect(r.value).toEqual({ error: `Timeout: ${base}/hang`, got: null });
        expect(took).toBeGreaterThanOrEqual(800);
        // Every request was sent and the two others were answered; the script sees none of it.
        expect(seen.slice(from).sort()).toEqual(['/hang', '/one', '/two?delay=100']);
        expect(r.counts.fetches).toBe(3);
      },
      { allowLocalFetch: [base], fetchTimeoutMs: 800 },
    );
  });

  it('fetchAll with a refused address still returns only when the slow requests have ended', async () => {
    await withRuntime(
      async (rt) => {
        const t0 = Date.now();
        expect(
          await gasError(
            rt,
            `UrlFetchApp.fetchAll(['${base}/slow?delay=700', 'http://192.168.0.1/', '${base}/fast']);`,
          ),
        ).toBe('Address unavailable: http://192.168.0.1/');
        expect(Date.now() - t0).toBeGreaterThanOrEqual(700);
      },
      { allowLocalFetch: [base] },
    );
  });
});
