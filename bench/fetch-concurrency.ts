// The fetch_concurrency bench: a fetchAll of 14 requests on Apps Script's modelled clock goes out in rounds of the
// runtime's fetch concurrency, and a council of 20 agents on a slow model still ends every execution in time.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Runtime } from '../runtime/runtime.js';
import { CALL_COST_MS } from '../runtime/host/time-model.js';
import { ModelServer } from '../tools/model-server.js';
import { discussion, must, sheet } from './discussion.js';

export interface FetchConcurrencyResult {
  concurrency: number;
  requests: number;
  // Rounds read off the execution's clock: the fetch's modelled time over one round's (the model's latency plus the
  // call's overhead), within the overhead's range.
  rounds: number;
  fetch_ms: number;
  L_ms: number;
  // One demo discussion with the Agents tab at 20 agents and a model answering in `slow_model_ms`.
  twenty_agents: {
    agents: number;
    slow_model_ms: number;
    status: string;
    executions: number;
    timed_out: number;
    longest_execution_ms: number;
    limit_ms: number;
  };
}

async function fetchRounds(L: number, requests: number): Promise<{ rounds: number; fetch_ms: number }> {
  const server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rt = new Runtime({ allowLocalFetch: [base], timeModel: { fetchMs: L } });
  try {
    const r = await rt.evaluate(
      `var reqs = []; for (var i = 0; i < ${requests}; i++) reqs.push({ url: ${JSON.stringify(`${base}/`)} + i });
      return UrlFetchApp.fetchAll(reqs).length;`,
    );
    if (!r.ok || r.value !== requests) throw new Error(`fetchAll: ${r.error?.message ?? r.value}`);
    const ms = r.counts.msByKind.fetch ?? 0;
    const [low, high] = CALL_COST_MS.fetch;
    let rounds = 0;
    for (let k = 1; k <= requests; k++) if (ms >= k * (L + low) && ms <= k * (L + high)) rounds = k;
    return { rounds, fetch_ms: ms };
  } finally {
    await rt.close();
    server.close();
  }
}

// Six more specialists, copied from the first one's row under new ids (an agent without a prompt row speaks from its
// description): set-up written straight into the model, not an execution.
function growCouncil(rt: Runtime, to: number): number {
  const wb = rt.workbook;
  const agents = sheet(wb, 'Agents');
  const rows = wb.getValues(agents, 2, 1, wb.lastRow(agents) - 1, agents.maxCols);
  const specialist = rows.find((r) => r[3] === 'specialist');
  if (!specialist) throw new Error('no specialist row');
  const extra = Array.from({ length: Math.max(0, to - rows.length) }, (_, i) =>
    specialist.map((v, c) => (c === 0 ? `extra_specialist_${i + 1}` : c <= 2 ? `${v} ${i + 2}` : v)),
  );
  if (extra.length) wb.setValues(agents, wb.lastRow(agents) + 1, 1, extra.length, agents.maxCols, extra);
  return rows.length + extra.length;
}

async function twentyAgents(startAt: number, slow: number): Promise<FetchConcurrencyResult['twenty_agents']> {
  const server = new ModelServer();
  const base = await server.start();
  const rt = new Runtime({ startAt, allowLocalFetch: [base], timeModel: { fetchMs: slow } });
  try {
    must(await rt.run('setup', [], { kind: 'menu' }));
    must(await rt.run('seedDemoData', [], { kind: 'menu' }));
    const agents = growCouncil(rt, 20);
    rt.scriptProperties.set({
      KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
        provider: 'openai-compatible',
        model: 'bench',
        base_url: `${base}/v1`,
      }),
    });
    const runs = await discussion(rt);
    const log = sheet(rt.workbook, 'Discussion Log');
    return {
      agents,
      slow_model_ms: slow,
      status: String(rt.workbook.getValues(log, rt.workbook.lastRow(log), 2, 1, 1)[0][0]),
      executions: runs.length,
      timed_out: runs.filter((r) => r.timedOut).length,
      longest_execution_ms: Math.max(...runs.map((r) => r.endedAt - r.startedAt)),
      limit_ms: rt.executionLimitMs,
    };
  } finally {
    await rt.close();
    await server.stop();
  }
}

export async function fetchConcurrencyBench(startAt: number, L = 2000): Promise<FetchConcurrencyResult> {
  const requests = 14;
  const probe = new Runtime();
  const concurrency = probe.timeModel.options.fetchConcurrency;
  await probe.close();
  return {
    concurrency,
    requests,
    ...(await fetchRounds(L, requests)),
    L_ms: L,
    twenty_agents: await twentyAgents(startAt, 50_000),
  };
}
