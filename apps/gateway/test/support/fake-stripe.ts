/**
 * A stateful Stripe double over real HTTP, for the payment tests. Every request is first
 * forwarded to Stripe's official mock (stripe-mock.ts: its 400 is answered as is, so every request
 * an adapter makes is one Stripe's API accepts), then answered from the double's own state
 * (fake-stripe-intents.ts), shaped like stripe-mock's fixture answer, honouring Idempotency-Key
 * as Stripe does (same key and parameters → the same answer, `Idempotent-Replayed: true`).
 *
 * Usage (in a test; a gateway running as a child process reaches it at `stripe.url`, e.g. through
 * STRIPE_API_URL, and a process without the object drives it over HTTP under `/__double/`):
 *
 *     const stripe = await startFakeStripe();
 *     const spt = stripe.grantSharedPaymentToken('pm_card_threeDSecure2Required');
 *     stripe.confirmByBuyer(intentId);              // what Stripe.js does on the merchant's page
 *     stripe.authenticate(intentId, true);          // the buyer passed (or failed) 3-D Secure
 *     stripe.failCapture(intentId);                 // the authorization lapsed: capture refused
 *     stripe.fault({ kind: 'drop', when: 'after', path: /\/capture$/ }); // captured, answer lost
 *     stripe.fault({ kind: 500, times: 3 });        // also 429, 'timeout' (never answers), 'drop'
 *     expect(stripe.count('capture', intentId)).toBe(1);
 *     await stripe.sendWebhook(url, secret, 'payment_intent.succeeded', stripe.intentView(intentId), { account: 'acct_1' });
 *     await stripe.stop();
 *
 * Test payment methods behave as Stripe documents them (fake-stripe-cards.ts). Parameters newer
 * than stripe-mock's 2020 specification (NEWER_THAN_STRIPE_MOCK) are not forwarded to it: each is
 * listed there with the page of Stripe's current API reference it is checked against, and every
 * request records what was held back (`requests[i].heldBack`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parseForm, withoutKeys } from './form-body.js';
import { FakeIntents, stripeError, type Answer, type FakeIntent } from './fake-stripe-intents.js';
import { route, type Move } from './fake-stripe-routes.js';
import { doubleControl } from './fake-stripe-control.js';
import { signedEvent, type EventOptions } from './fake-stripe-webhooks.js';
import { startStripeMock, type StripeMock } from './stripe-mock.js';

export type { Move };

/**
 * Form keys of Stripe's current API that stripe-mock's 2020 spec refuses as unknown.
 * - `payment_method_data[shared_payment_granted_token]`: confirming a PaymentIntent with an
 *   agent's Shared Payment Token, https://docs.stripe.com/api/payment_intents/create
 *   (`payment_method_data.shared_payment_granted_token`, API 2026-04-22 and later).
 */
export const NEWER_THAN_STRIPE_MOCK = ['payment_method_data[shared_payment_granted_token]'] as const;

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  account: string | undefined;
  idempotencyKey: string | undefined;
  /** Keys not shown to stripe-mock because its spec predates them (NEWER_THAN_STRIPE_MOCK). */
  heldBack: string[];
  status: number;
}

export interface Fault {
  kind: 'timeout' | 'drop' | 500 | 429;
  /** `before` (default): the request never reached Stripe. `after`: Stripe did it, and the answer was lost. */
  when?: 'before' | 'after';
  /** How many matching requests it hits (default 1). */
  times?: number;
  method?: string;
  path?: RegExp | string;
}

export interface FakeStripe {
  url: string;
  mock: StripeMock;
  requests: RecordedRequest[];
  state: FakeIntents;
  intent(id: string): FakeIntent;
  intentView(id: string): Record<string, unknown>;
  confirmByBuyer(id: string, paymentMethod?: string): void;
  authenticate(id: string, succeeded?: boolean): void;
  grantSharedPaymentToken(paymentMethod?: string): string;
  failCapture(id: string): void;
  fault(fault: Fault): void;
  /** Forgets the faults not yet hit. */
  clearFaults(): void;
  /** How many times a move was done (replays and refused requests not counted), for one intent or all. */
  count(move: Move, intentId?: string): number;
  sendWebhook(url: string, secret: string, type: string, object: Record<string, unknown>, options?: EventOptions): Promise<Response>;
  stop(): Promise<void>;
}

interface Saved {
  fingerprint: string;
  answer: Answer;
}

export async function startFakeStripe(options: { mock?: StripeMock } = {}): Promise<FakeStripe> {
  const mock = options.mock ?? (await startStripeMock());
  const state = new FakeIntents();
  const requests: RecordedRequest[] = [];
  const faults: (Fault & { left: number })[] = [];
  const saved = new Map<string, Saved>();
  const inFlight = new Set<string>();
  const moves: { move: Move; intent: string }[] = [];
  const sockets = new Set<Socket>();

  const intent = (id: string) => {
    const found = state.intents.get(id);
    if (!found) throw new Error(`the Stripe double knows no PaymentIntent ${id}`);
    return found;
  };

  const double: FakeStripe = {
    url: '',
    mock,
    requests,
    state,
    intent,
    intentView: (id) => state.view(intent(id)),
    confirmByBuyer(id, paymentMethod = 'pm_card_visa') {
      const refused = state.confirm(intent(id), paymentMethod);
      if (refused && refused.status !== 402) throw new Error(`confirmByBuyer(${id}): ${JSON.stringify(refused.body)}`);
      moves.push({ move: 'confirm', intent: id });
    },
    authenticate: (id, succeeded = true) => state.authenticate(intent(id), succeeded),
    grantSharedPaymentToken(paymentMethod = 'pm_card_visa') {
      const token = `spt_${Math.random().toString(36).slice(2, 14)}`;
      state.sharedTokens.set(token, paymentMethod);
      return token;
    },
    failCapture: (id) => void (intent(id).captureFails = true),
    fault: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    clearFaults: () => void faults.splice(0),
    count: (move, intentId) => moves.filter((m) => m.move === move && (intentId === undefined || m.intent === intentId)).length,
    sendWebhook: (url, secret, type, object, options) => {
      const { payload, header } = signedEvent(secret, type, object, options);
      return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': header }, body: payload });
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
      if (!options.mock) await mock.stop();
    },
  };
  const control = doubleControl(double);

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const [path = '', query = ''] = (req.url ?? '').split('?');
    if (path.startsWith('/__double/')) return send(res, await control(req.method ?? 'GET', path, body));
    const method = req.method ?? 'GET';
    const form = method === 'GET' || method === 'DELETE' ? query : body;
    const account = header(req, 'stripe-account');
    const key = header(req, 'idempotency-key');
    const record: RecordedRequest = { method, path, params: parseForm(form), account, idempotencyKey: key, heldBack: [], status: 0 };
    requests.push(record);

    const fault = takeFault(faults, method, path);
    if (fault && fault.when !== 'after') return hit(fault, req, res, record);

    const savedKey = key && method === 'POST' ? `${account ?? ''}|${key}` : undefined;
    const fingerprint = `${method} ${path} ${body}`;
    const earlier = savedKey ? saved.get(savedKey) : undefined;
    if (earlier && earlier.fingerprint !== fingerprint) {
      return answer(res, record, stripeError(400, {
        type: 'idempotency_error',
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      }));
    }
    if (earlier) {
      if (fault) return hit(fault, req, res, record);
      return answer(res, record, earlier.answer, { 'idempotent-replayed': 'true' });
    }

    if (savedKey && inFlight.has(savedKey)) {
      return answer(res, record, stripeError(409, { type: 'idempotency_error', code: 'idempotency_key_in_use', message: 'There is currently another in-progress request using this Idempotent Key. Please try again later.' }));
    }
    if (savedKey) inFlight.add(savedKey);
    const { text, dropped } = withoutKeys(form, NEWER_THAN_STRIPE_MOCK);
    record.heldBack = dropped;
    let result: Answer;
    try {
      const fixture = await forward(mock.url, req, path, method === 'GET' || method === 'DELETE' ? query && `?${text}` : '', method === 'POST' ? text : undefined);
      if (fixture.status === 400 || fixture.status === 401) return answer(res, record, fixture);
      result = route(state, method, path, record.params, account, fixture, moves);
      if (savedKey && result.status < 500) saved.set(savedKey, { fingerprint, answer: result });
    } finally {
      if (savedKey) inFlight.delete(savedKey);
    }
    if (fault) return hit(fault, req, res, record);
    answer(res, record, result);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  double.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return double;
}

function takeFault(faults: (Fault & { left: number })[], method: string, path: string): Fault | undefined {
  const fault = faults.find(
    (f) => f.left > 0 && (!f.method || f.method === method) && (!f.path || (typeof f.path === 'string' ? path === f.path : f.path.test(path))),
  );
  if (fault) fault.left -= 1;
  return fault;
}

function hit(fault: Fault, req: IncomingMessage, res: ServerResponse, record: RecordedRequest): void {
  if (fault.kind === 'drop') return void req.socket.destroy();
  if (fault.kind === 'timeout') return; // held open until the client gives up (or the double stops)
  const body =
    fault.kind === 429
      ? { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests hit the API too quickly.' }
      : { type: 'api_error', message: 'Something went wrong on Stripe\'s end.' };
  answer(res, record, stripeError(fault.kind, body));
}

async function forward(mockUrl: string, req: IncomingMessage, path: string, query: string, body: string | undefined): Promise<Answer> {
  const headers: Record<string, string> = { authorization: header(req, 'authorization') ?? '', 'content-type': 'application/x-www-form-urlencoded' };
  const account = header(req, 'stripe-account');
  if (account) headers['stripe-account'] = account;
  const response = await fetch(`${mockUrl}${path}${query}`, { method: req.method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

function answer(res: ServerResponse, record: RecordedRequest, result: Answer, headers: Record<string, string> = {}): void {
  record.status = result.status;
  send(res, result, headers);
}

function send(res: ServerResponse, result: Answer, headers: Record<string, string> = {}): void {
  res.writeHead(result.status, { 'content-type': 'application/json', 'request-id': `req_${Date.now().toString(36)}`, ...headers });
  res.end(JSON.stringify(result.body));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}
