/**
 * The Stripe double driven over HTTP, for a process that does not hold the object (a test whose
 * double runs in another process). JSON bodies; the paths mirror the object's methods:
 *
 * | request                                                   | does                                   |
 * |-----------------------------------------------------------|----------------------------------------|
 * | POST /__double/payment_intents/{id}/confirm `{payment_method?}` | confirmByBuyer                   |
 * | POST /__double/payment_intents/{id}/authenticate `{succeeded?}` | authenticate                     |
 * | POST /__double/payment_intents/{id}/fail_capture          | failCapture                            |
 * | POST /__double/shared_payment_tokens `{payment_method?}`  | grantSharedPaymentToken → `{id}`       |
 * | POST /__double/faults `{kind, when?, times?, method?, path?}` | fault (`path` exact, or `/regex/`) |
 * | GET  /__double/payment_intents/{id}                       | intentView                             |
 * | GET  /__double/counts                                     | `{capture, cancel, refund, confirm, create}` by intent |
 */
import type { Answer } from './fake-stripe-intents.js';
import type { Fault, FakeStripe, Move } from './fake-stripe.js';

const MOVES: Move[] = ['capture', 'cancel', 'refund', 'confirm', 'create'];

export function doubleControl(double: FakeStripe): (method: string, path: string, body: string) => Promise<Answer> {
  return async (method, path, body) => {
    const input = (body ? JSON.parse(body) : {}) as Record<string, unknown>;
    const ok = (value: Record<string, unknown> = { ok: true }): Answer => ({ status: 200, body: value });
    try {
      const intent = /^\/__double\/payment_intents\/([^/]+)(?:\/(confirm|authenticate|fail_capture))?$/.exec(path);
      if (intent && method === 'GET' && !intent[2]) return ok(double.intentView(intent[1]!));
      if (intent && method === 'POST') {
        if (intent[2] === 'confirm') double.confirmByBuyer(intent[1]!, input.payment_method as string | undefined);
        else if (intent[2] === 'authenticate') double.authenticate(intent[1]!, input.succeeded !== false);
        else if (intent[2] === 'fail_capture') double.failCapture(intent[1]!);
        else return notFound(method, path);
        return ok();
      }
      if (method === 'POST' && path === '/__double/shared_payment_tokens') {
        return ok({ id: double.grantSharedPaymentToken(input.payment_method as string | undefined) });
      }
      if (method === 'POST' && path === '/__double/faults') {
        const raw = input.path as string | undefined;
        const fault = { ...input, path: raw && /^\/.*\/$/.test(raw) ? new RegExp(raw.slice(1, -1)) : raw } as Fault;
        double.fault(fault);
        return ok();
      }
      if (method === 'GET' && path === '/__double/counts') {
        const counts: Record<string, Record<string, number>> = {};
        for (const move of MOVES) {
          counts[move] = {};
          for (const id of double.state.intents.keys()) {
            const n = double.count(move, id);
            if (n) counts[move]![id] = n;
          }
        }
        return ok(counts);
      }
      return notFound(method, path);
    } catch (error) {
      return { status: 400, body: { error: { message: (error as Error).message } } };
    }
  };
}

function notFound(method: string, path: string): Answer {
  return { status: 404, body: { error: { message: `the Stripe double has no control ${method} ${path}` } } };
}
