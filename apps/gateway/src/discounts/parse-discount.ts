/**
 * One record of a merchant's discounts file (docs/operating.md, "Discounts"), checked field by
 * field: a definition that makes no sense is refused with the field it is about, never stored.
 *
 *   {"type":"code","code":"SAVE10","kind":"percentage","percentage":10,"usage_limit":100}
 *   {"type":"code","code":"5OFF","kind":"fixed","amounts":{"USD":5,"EUR":4.5},"minimum_subtotal":{"USD":25}}
 *   {"type":"promotion","id":"ship-free-50","title":"Free shipping over $50","kind":"free_shipping","minimum_subtotal":{"USD":50}}
 *   {"type":"promotion","id":"chairs-15","title":"15 % off chairs","kind":"percentage","percentage":15,"applies_to":{"categories":["chairs"]}}
 *
 * Amounts are in major units, as the catalog's prices are, and must be exact in the currency.
 */
import { toMajor, toMinor } from '../kernel/money/money.js';
import type { Amounts, DiscountCode, DiscountTarget, Promotion } from './discount.js';

export class DiscountDefinitionError extends Error {
  override name = 'DiscountDefinitionError';
  constructor(
    /** The field, as a path in the record (`amounts.USD`, `applies_to.products[0]`). */
    readonly field: string,
    reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

export type DiscountRecord = { type: 'code'; code: DiscountCode } | { type: 'promotion'; promotion: Promotion };

/** What the merchant sells in (upper-case codes); undefined: any well-formed currency is taken. */
export type SoldCurrencies = ReadonlySet<string> | undefined;

type Fields = Record<string, unknown>;

const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const CURRENCY = /^[A-Za-z]{3}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const FIELDS = {
  code: ['type', 'code', 'kind', 'percentage', 'amounts', 'applies_to', 'minimum_subtotal', 'starts_at', 'ends_at', 'usage_limit', 'per_customer_limit', 'combinable'],
  promotion: ['type', 'id', 'title', 'kind', 'percentage', 'applies_to', 'minimum_subtotal', 'starts_at', 'ends_at'],
} as const;

export function parseDiscount(value: unknown, sold: SoldCurrencies = undefined): DiscountRecord {
  if (!isObject(value)) throw new DiscountDefinitionError('(record)', 'must be a JSON object');
  const type = value.type;
  if (type !== 'code' && type !== 'promotion') throw new DiscountDefinitionError('type', 'must be "code" or "promotion"');
  const unknown = Object.keys(value).find((key) => !(FIELDS[type] as readonly string[]).includes(key));
  if (unknown !== undefined) throw new DiscountDefinitionError(unknown, `is not a field of a ${type}`);
  const window = validity(value);
  const minimumSubtotal = value.minimum_subtotal === undefined ? undefined : amounts(value.minimum_subtotal, 'minimum_subtotal', sold, true);
  const target = targetOf(value.applies_to);
  if (type === 'promotion') {
    const id = text(value.id, 'id', 64);
    const title = value.title === undefined ? id : text(value.title, 'title', 200);
    const kind = value.kind;
    if (kind !== 'free_shipping' && kind !== 'percentage') throw new DiscountDefinitionError('kind', 'must be "free_shipping" or "percentage"');
    if (kind === 'free_shipping' && value.percentage !== undefined) throw new DiscountDefinitionError('percentage', 'is not a field of a free_shipping promotion');
    const effect = kind === 'free_shipping' ? ({ kind } as const) : ({ kind, basisPoints: basisPoints(value.percentage) } as const);
    return { type, promotion: { id, title, effect, target, minimumSubtotal, ...window } };
  }
  const code = value.code;
  if (typeof code !== 'string' || !CODE.test(code)) throw new DiscountDefinitionError('code', 'must be 1 to 64 letters, digits, "-" or "_", starting with a letter or digit');
  const kind = value.kind;
  if (kind !== 'percentage' && kind !== 'fixed') throw new DiscountDefinitionError('kind', 'must be "percentage" or "fixed"');
  if (kind === 'percentage' && value.amounts !== undefined) throw new DiscountDefinitionError('amounts', 'is for a fixed code; a percentage code has `percentage`');
  if (kind === 'fixed' && value.percentage !== undefined) throw new DiscountDefinitionError('percentage', 'is for a percentage code; a fixed code has `amounts`');
  const discountValue =
    kind === 'percentage' ? ({ kind, basisPoints: basisPoints(value.percentage) } as const) : ({ kind, amounts: amounts(value.amounts, 'amounts', sold, false) } as const);
  if (value.combinable !== undefined && typeof value.combinable !== 'boolean') throw new DiscountDefinitionError('combinable', 'must be true or false');
  return {
    type,
    code: {
      code,
      value: discountValue,
      target,
      minimumSubtotal,
      ...window,
      usageLimit: count(value.usage_limit, 'usage_limit'),
      perCustomerLimit: count(value.per_customer_limit, 'per_customer_limit'),
      combinable: value.combinable !== false,
    },
  };
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) throw new DiscountDefinitionError(field, `must be a non-blank string of at most ${max} characters`);
  return value;
}

/** A percentage in (0, 100] with at most two decimals, as basis points. */
function basisPoints(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 100) throw new DiscountDefinitionError('percentage', 'must be a number above 0 and at most 100');
  const points = Math.round(value * 100);
  if (Math.abs(points - value * 100) > 1e-9) throw new DiscountDefinitionError('percentage', 'must have at most two decimals');
  return points;
}

function count(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw new DiscountDefinitionError(field, 'must be a whole number of at least 1');
  return value as number;
}

function amounts(value: unknown, field: string, sold: SoldCurrencies, zeroAllowed: boolean): Amounts {
  if (!isObject(value) || Object.keys(value).length === 0) throw new DiscountDefinitionError(field, 'must be an object of amounts by currency, e.g. {"USD": 5}');
  const out: Record<string, bigint> = {};
  for (const [key, amount] of Object.entries(value)) {
    const at = `${field}.${key}`;
    if (!CURRENCY.test(key)) throw new DiscountDefinitionError(at, 'is not an ISO 4217 currency code');
    const currency = key.toUpperCase();
    if (sold && !sold.has(currency)) throw new DiscountDefinitionError(at, `the merchant sells in ${[...sold].sort().join(', ') || 'no currency yet'}, not ${currency}`);
    if (currency in out) throw new DiscountDefinitionError(at, `${currency} is given twice`);
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0 || (!zeroAllowed && amount === 0)) {
      throw new DiscountDefinitionError(at, zeroAllowed ? 'must be a number of at least 0' : 'must be a number above 0');
    }
    const minor = toMinor(amount, currency);
    if (minor > BigInt(Number.MAX_SAFE_INTEGER) || toMajor(minor, currency) !== amount) throw new DiscountDefinitionError(at, `is not an exact amount of ${currency}`);
    out[currency] = minor;
  }
  return out;
}

function instant(value: unknown, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = typeof value === 'string' && RFC3339.test(value) ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw new DiscountDefinitionError(field, 'must be an RFC 3339 date-time, e.g. 2026-12-01T00:00:00Z');
  return date;
}

function validity(value: Fields): { startsAt?: Date; endsAt?: Date } {
  const startsAt = instant(value.starts_at, 'starts_at');
  const endsAt = instant(value.ends_at, 'ends_at');
  if (startsAt && endsAt && endsAt <= startsAt) throw new DiscountDefinitionError('ends_at', 'must be after starts_at');
  return { ...(startsAt ? { startsAt } : {}), ...(endsAt ? { endsAt } : {}) };
}

function targetOf(value: unknown): DiscountTarget {
  if (value === undefined) return { kind: 'cart' };
  const keys = isObject(value) ? Object.keys(value) : [];
  if (!isObject(value) || keys.length !== 1 || (keys[0] !== 'products' && keys[0] !== 'categories')) {
    throw new DiscountDefinitionError('applies_to', 'must be {"products": [ids]} or {"categories": [names]} (leave it out for the whole cart)');
  }
  const key = keys[0] as 'products' | 'categories';
  const list = value[key];
  if (!Array.isArray(list) || list.length === 0 || list.length > 1000) throw new DiscountDefinitionError(`applies_to.${key}`, 'must be a list of 1 to 1,000 strings');
  list.forEach((item, i) => text(item, `applies_to.${key}[${i}]`, 200));
  const items = [...new Set(list as string[])];
  return key === 'products' ? { kind: 'products', productIds: items } : { kind: 'categories', categories: items };
}
