// verify() throughput beside bare node:crypto on the same ~2 KB body.
// Run after building the package:  node bench/webhooks/verify.bench.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { sign, verify } from '../../packages/webhooks/dist/index.js';

const WARMUP_MS = 500;
const ROUND_MS = 250;
const ROUNDS = Number(process.env.ROUNDS ?? 15);

// A realistic order.created delivery of about 2 KB.
const lineItem = (i) => ({
  product_id: `prod_${i}`, variant_sku: `SKU-${1000 + i}-BLK-M`, quantity: 1 + (i % 3),
  title: `Merino wool crew sweater, charcoal, size M (${i})`, unit_price: 89.5, currency: 'USD', subtotal: 89.5 * (1 + (i % 3)),
});
const event = {
  id: 'evt_9b1d4c2e7f0a43c8b6e5d1f2a3c4b5d6', type: 'order.created', created: '2025-01-15T10:30:00Z',
  data: { object: {
    id: 'cs_7f3a9c2b1e4d', status: 'completed', currency: 'USD', line_items: [],
    shipping_address: { name: 'Ada Lovelace', line1: '12 St James’s Square', city: 'London', postal_code: 'SW1Y 4JH', country: 'GB' },
    customer: { email: 'ada@example.com', name: 'Ada Lovelace' }, payment_method: 'demo_card',
    amounts: { subtotal: 0, tax: 0, shipping: 0, total: 0, currency: 'USD' }, created_at: '2025-01-15T10:29:58Z',
  } },
};
for (let i = 0; JSON.stringify(event).length < 2000; i++) event.data.object.line_items.push(lineItem(i));
const text = JSON.stringify(event);
const body = Buffer.from(text); // what express.raw() hands over
const secret = 'whsec_5f2b8c1d9e3a4f6b7c8d9e0f1a2b3c4d';
const header = sign(body, secret);
const expected = Buffer.from(header.split('v1=')[1], 'hex');

let sink = 0;
const cases = {
  'verify()': () => { sink += verify(body, header, secret).id.length; },
  'bare createHmac + timingSafeEqual': () => {
    sink += timingSafeEqual(createHmac('sha256', secret).update(body).digest(), expected) ? 1 : 0;
  },
  'bare + JSON.parse': () => {
    if (!timingSafeEqual(createHmac('sha256', secret).update(body).digest(), expected)) throw new Error('mismatch');
    sink += JSON.parse(body.toString('utf8')).id.length;
  },
};

function opsPerSecond(fn, ms) {
  let ops = 0;
  const end = performance.now() + ms;
  let now;
  do {
    for (let i = 0; i < 100; i++) fn();
    ops += 100;
    now = performance.now();
  } while (now < end);
  return ops / ((now - end + ms) / 1000);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const fn of Object.values(cases)) opsPerSecond(fn, WARMUP_MS);
const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order every round so drift (turbo, GC, neighbours) does not favour one case.
  const names = Object.keys(cases);
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + round) % names.length];
    samples[name].push(opsPerSecond(cases[name], ROUND_MS));
  }
}

const result = Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, median(xs)]));
const fmt = (n) => Math.round(n).toLocaleString('en-US').padStart(9);
console.log(`body ${body.length} bytes, Node ${process.version}, ${ROUNDS} rounds of ${ROUND_MS} ms, median ops/s`);
for (const [name, ops] of Object.entries(result)) console.log(`  ${name.padEnd(36)} ${fmt(ops)} ops/s  (${(1e6 / ops).toFixed(2)} µs/op)`);
const vs = (base) => (result['verify()'] / result[base]).toFixed(2);
console.log(`ratio verify / bare HMAC (no JSON)     ${vs('bare createHmac + timingSafeEqual')}   (verify also parses JSON and the header)`);
console.log(`ratio verify / bare HMAC + JSON.parse  ${vs('bare + JSON.parse')}   (like for like; goal ≥ 0.90)`);
if (sink === 0) console.log('(sink)');
