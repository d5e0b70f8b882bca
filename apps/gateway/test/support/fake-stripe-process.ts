/**
 * The Stripe double as a process of its own, for a test that wants it outside its own process:
 * prints one JSON line `{"url": "http://127.0.0.1:<port>"}` once it answers, and stops (with its
 * stripe-mock) on SIGTERM or SIGINT. Drive it over HTTP under `/__double/` (fake-stripe-control.ts).
 *
 *     const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/fake-stripe-process.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
 *     const { url } = JSON.parse(await firstLine(child.stdout));
 */
import { startFakeStripe } from './fake-stripe.js';

const stripe = await startFakeStripe();
process.stdout.write(`${JSON.stringify({ url: stripe.url, mock: stripe.mock.url })}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void stripe.stop().then(() => process.exit(0));
  });
}
