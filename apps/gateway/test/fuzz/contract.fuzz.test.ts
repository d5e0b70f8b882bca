/**
 * Property-based requests generated from the contract — valid, boundary and
 * malformed — against every operation of a real gateway. Whatever is sent:
 * no 5xx, a declared status, every error body in one of the contract's two
 * shapes, every 2xx body valid against the contract.
 *
 *   pnpm --filter @commerce-gateway/gateway test                     (FUZZ_RUNS=40 per operation)
 *   FUZZ_RUNS=2000 pnpm --filter @commerce-gateway/gateway test:fuzz  (a long run; FUZZ_SEED to replay)
 *
 * An operation that runs out of its time (FUZZ_TIME_LIMIT_MS) before FUZZ_RUNS runs fails,
 * naming how many it did; the summary prints the runs done per operation.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document.js';
import { SF_ADDRESS, stocked } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { ContractCheck } from './support/contract-check.js';
import { describeRequest, requestArbitrary, type FuzzRequest, type FuzzWorld, type OperationSpec } from './support/request-arbitrary.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** Each operation's time budget (default: 100 ms a run, at least a minute). */
const TIME_LIMIT_MS = Number(process.env.FUZZ_TIME_LIMIT_MS ?? Math.max(60_000, RUNS * 100));
const contract = loadContract() as never as { paths: Record<string, Record<string, { operationId?: string }>> };
const operations: (OperationSpec & { id: string })[] = Object.entries(contract.paths).flatMap(([template, item]) =>
  Object.entries(item)
    .filter(([, operation]) => typeof operation === 'object' && operation && 'operationId' in operation)
    .map(([method, operation]) => ({ id: operation.operationId!, method: method.toUpperCase(), template, operation })),
);

let gateway: TestGateway;
let receiver: Receiver;
let world: FuzzWorld;
const check = new ContractCheck(contract);
const seen = new Map<string, Map<string, number>>();
const runsDone = new Map<string, number>();

beforeAll(async () => {
  [gateway, receiver] = await Promise.all([startTestGateway(), startReceiver()]);
  const products = [
    stocked('p-0', [{ sku: 'p-0-a', quantity: 100_000 }, { sku: 'p-0-b', quantity: 3 }]),
    stocked('p-1', [{ sku: 'p-1-a', quantity: 100_000, requires_shipping: false }]),
    stocked('p-2', [{ sku: 'p-2-eur', currency: 'EUR', quantity: 100_000 }]),
    stocked('p-3', [{ sku: 'p-3-a', quantity: 0, policy: 'continue' }]),
  ];
  await gateway.importProducts('fuzz-shop', products);
  const key = await gateway.createKey({ merchantIds: ['fuzz-shop'] });
  const sessionIds: string[] = [];
  for (const items of [[{ product_id: 'p-0' }], [{ product_id: 'p-1', quantity: 2 }], [{ product_id: 'p-2' }]]) {
    const response = await fetch(`${gateway.url}/checkout_sessions`, {
      method: 'POST',
      headers: { 'X-ACP-API-Key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ items, shipping_address: SF_ADDRESS }),
    });
    expect(response.status).toBe(201);
    sessionIds.push(((await response.json()) as { checkout_session: { id: string } }).checkout_session.id);
  }
  const orderIds: string[] = [];
  for (const items of [[{ product_id: 'p-0', quantity: 2 }], [{ product_id: 'p-1' }]]) {
    const headers = { 'X-ACP-API-Key': key, 'content-type': 'application/json' };
    const created = await fetch(`${gateway.url}/checkout_sessions`, { method: 'POST', headers, body: JSON.stringify({ items, shipping_address: SF_ADDRESS, customer: { email: 'fuzz@example.com' } }) });
    const { checkout_session: session } = (await created.json()) as { checkout_session: { id: string } };
    const completed = await fetch(`${gateway.url}/checkout_sessions/${session.id}/complete`, { method: 'POST', headers: { 'X-ACP-API-Key': key } });
    expect(completed.status).toBe(200);
    orderIds.push(((await completed.json()) as { checkout_session: { order: { id: string } } }).checkout_session.order.id);
  }
  world = {
    key,
    merchantId: 'fuzz-shop',
    productIds: products.map((p) => p.id),
    skus: products.flatMap((p) => p.variants.map((v) => v.sku)),
    sessionIds,
    orderIds,
    receiverUrl: `${receiver.url}/hooks`,
  };
});

afterAll(async () => {
  const lines = [...seen].map(
    ([id, statuses]) => `${id.padEnd(24)} ${String(runsDone.get(id) ?? 0).padStart(5)} runs  ${[...statuses].sort().map(([s, n]) => `${s}×${n}`).join('  ')}`,
  );
  console.log(`[fuzz] ${RUNS} runs per operation${SEED === undefined ? '' : `, seed ${SEED}`}; answers by mode and status:\n${lines.join('\n')}`);
  await Promise.all([gateway?.close(), receiver?.close()]);
});

/** Whether a path (as the client normalised it: `.` and `..` segments resolved) still addresses the template's route. */
function addresses(template: string, pathname: string): boolean {
  return new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`).test(pathname);
}

async function send(request: FuzzRequest): Promise<{ status: number; body: unknown; requestId: string | null; pathname: string }> {
  const url = new URL(`${gateway.url}${request.path}`);
  for (const [name, value] of request.query) url.searchParams.append(name, value);
  const attempt = () => fetch(url, { method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(20_000) });
  // A pooled keep-alive connection the server closed just now fails once ("other side closed"): try again once.
  const response = await attempt().catch((error: Error) => (error.name === 'TimeoutError' ? Promise.reject(error) : attempt()));
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the checks below will say so
  }
  return { status: response.status, body, requestId: response.headers.get('request-id'), pathname: url.pathname };
}

describe('every operation, fuzzed from the contract', () => {
  it.each(operations.map((op) => [op.id, op] as const))('%s: no 5xx, declared statuses, contract-shaped bodies', async (id, op) => {
    const tally = new Map<string, number>();
    seen.set(id, tally);
    const details = await fc.check(
      fc.asyncProperty(requestArbitrary(contract, op, world), async (request) => {
        const { status, body, requestId, pathname } = await send(request);
        tally.set(`${request.mode}:${status}`, (tally.get(`${request.mode}:${status}`) ?? 0) + 1);
        // `/checkout_sessions/.` reaches `/checkout_sessions/`: another route, whose statuses the operation need not declare.
        const problems = check.problems(op.template, op.method, status, body, { routed: addresses(op.template, pathname) });
        if (!requestId) problems.push('no Request-Id header');
        if (problems.length) {
          throw new Error(`${problems.join('; ')}\n  request: ${describeRequest(request)}`);
        }
      }),
      // Out of time before RUNS runs is a failure too (never a quiet pass), reported with the runs it did.
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: true },
    );
    runsDone.set(id, details.numRuns);
    if (details.interrupted) {
      throw new Error(`${id}: out of time (${TIME_LIMIT_MS / 1000} s) after ${details.numRuns} of ${RUNS} runs (seed ${details.seed}); lower FUZZ_RUNS or raise FUZZ_TIME_LIMIT_MS`);
    }
    if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? `${id}: property failed (seed ${details.seed})`);
  }, TIME_LIMIT_MS + 30_000);
});
