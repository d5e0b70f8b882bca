/**
 * The checks of an order change, before anything is written: which units a fulfillment or a
 * refund takes (by the contract's 1-based `line`), and how much money a refund pays back. Each
 * refusal names the request's field, as the contract promises; pure, over an OrderRecord.
 */
import { toMajor, toMinor } from '../kernel/money/money.js';
import type { CreateFulfillmentRequest, CreateRefundRequest } from '../contract/types.js';
import { InvalidRequestError, InvalidStateError } from '../kernel/errors.js';
import { lineNumbers } from './order-mapper.js';
import type { LineUnits, OrderRecord } from './order-record.js';
import { lineProgress, paidFor, refundable, type LineProgress } from './order-progress.js';

type Requested = NonNullable<CreateFulfillmentRequest['lines']>;

/** The requested units by session position, each at most what `room` leaves of its line. */
function pick(record: OrderRecord, requested: Requested, room: (line: LineProgress) => number, what: string): LineUnits[] {
  const { toPosition } = lineNumbers(record);
  const progress = lineProgress(record);
  const seen = new Set<number>();
  return requested.map(({ line, quantity }, index) => {
    const position = toPosition(line);
    const found = progress.find((p) => p.line.position === position);
    if (position === undefined || !found) throw new InvalidRequestError(`The order has no line ${line} (it has ${progress.length})`, `lines[${index}].line`);
    if (seen.has(line)) throw new InvalidRequestError(`Line ${line} is named twice; name each line once`, `lines[${index}].line`);
    seen.add(line);
    const left = room(found);
    if (quantity > left) {
      throw new InvalidRequestError(
        `Line ${line} has ${left} unit(s) left to ${what} (ordered ${found.ordered}, fulfilled ${found.fulfilled}, refunded ${found.refunded}, canceled ${found.canceled}); ${quantity} asked`,
        `lines[${index}].quantity`,
      );
    }
    return { position: position, quantity };
  });
}

function isWebUrl(text: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The units a new fulfillment holds: the requested ones, or every unit left to fulfil. */
export function fulfillmentLines(record: OrderRecord, request: CreateFulfillmentRequest): LineUnits[] {
  const progress = lineProgress(record);
  if (progress.every((line) => line.remaining === 0)) {
    throw new InvalidStateError(`Order ${record.session.order.id} has nothing left to fulfil (it is ${record.session.order.status})`);
  }
  if (request.tracking_url !== undefined && !isWebUrl(request.tracking_url)) {
    throw new InvalidRequestError('tracking_url must be an http or https URL, like https://carrier.example/track/1Z999', 'tracking_url');
  }
  if (!request.lines) return progress.filter((line) => line.remaining > 0).map((line) => ({ position: line.line.position, quantity: line.remaining }));
  return pick(record, request.lines, (line) => line.remaining, 'fulfil');
}

/**
 * The minor units and units of a refund. The amount defaults to what the refunded lines' units were
 * paid (their price less their discount, plus their tax: prorated, order-progress.ts), or, without
 * lines, to everything not yet refunded — never more than is left.
 */
export function refundOf(record: OrderRecord, request: CreateRefundRequest): { amount: bigint; lines: LineUnits[] } {
  const left = refundable(record);
  const { currency, id } = record.session.order;
  if (left <= 0n) throw new InvalidStateError(`Order ${id} is refunded in full; nothing is left to pay back`);
  const lines = request.lines ? pick(record, request.lines, (line) => line.remaining, 'refund (only units not fulfilled are refunded by line; refund shipped goods by amount)') : [];
  const prorated = lines.length ? paidFor(record, lines) : left;
  let amount = prorated < left ? prorated : left;
  if (request.amount !== undefined) {
    const tooMuch = (shown: number) => new InvalidRequestError(`amount ${shown} is more than what is left to refund: ${toMajor(left, currency)} ${currency}`, 'amount');
    if (request.amount >= 1e21) throw tooMuch(request.amount); // beyond toMinor's range, and any order's total
    const minor = request.amount > 0 ? toMinor(request.amount, currency) : 0n;
    if (minor > left) throw tooMuch(request.amount);
    if (minor <= 0n || toMajor(minor, currency) !== request.amount) {
      throw new InvalidRequestError(`amount must be a positive amount in major units of ${currency}, at most to its minor unit`, 'amount');
    }
    amount = minor;
  }
  if (amount <= 0n) throw new InvalidRequestError(`The units named were paid nothing (fully discounted); name an amount to pay back`, 'amount');
  return { amount, lines };
}
