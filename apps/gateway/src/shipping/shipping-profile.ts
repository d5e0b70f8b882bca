/**
 * A merchant's shipping profile: zones by destination (ISO 3166-1 alpha-2 countries, or ISO 3166-2
 * regions `US-AK`), each with its methods — prices per currency, an optional free-from subtotal per
 * currency and an optional delivery estimate in business days. A merchant without one ships at the
 * flat rate of the settings (SHIPPING_FLAT_RATE, SHIPPING_FREE_FROM).
 *
 * `parseShippingProfile` is the one check of a profile document (the CLI's import): the first
 * problem is a ShippingProfileError naming its JSONPath; nothing half-valid is ever returned. A
 * document's amounts are in major units, as the catalog's prices and the discounts file's are
 * (`{"USD": 7.5}`), exact in the currency; the domain and the stored form hold integer minor units.
 */
import { toMajor, toMinor } from '../kernel/money/money.js';
import { InvalidRequestError } from '../kernel/errors.js';
import { isCountryCode } from '../kernel/iso-countries.js';

export interface DeliveryEstimate {
  minBusinessDays: number;
  maxBusinessDays: number;
}

export interface ShippingMethod {
  /** Stable id within its zone (`standard`, `express`): what a buyer chooses. */
  id: string;
  title: string;
  /** Price by currency (upper case), integer minor units. */
  prices: Readonly<Record<string, number>>;
  /** Free when the cart's subtotal reaches this, by currency, minor units. */
  freeFrom: Readonly<Record<string, number>>;
  estimate: DeliveryEstimate | null;
}

export interface ShippingZone {
  id: string;
  /** Whole countries the zone covers (upper case alpha-2). */
  countries: readonly string[];
  /** Regions the zone covers (`US-AK`): more specific than a country, so they win over it. */
  regions: readonly string[];
  methods: readonly ShippingMethod[];
}

export interface ShippingProfile {
  zones: readonly ShippingZone[];
}

/** A bad profile document: `param` is the JSONPath of the offending value. */
export class ShippingProfileError extends InvalidRequestError {
  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`, path);
  }
}

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const CURRENCY = /^[A-Z]{3}$/;
const REGION = /^([A-Z]{2})-[A-Z0-9]{1,3}$/;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function object(value: unknown, path: string, keys: readonly string[]): Json {
  if (!isObject(value)) throw new ShippingProfileError(path, 'must be an object');
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined) throw new ShippingProfileError(`${path}.${unknown}`, `unknown field (allowed: ${keys.join(', ')})`);
  return value;
}

function array(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new ShippingProfileError(path, 'must be an array');
  return value;
}

function text(value: unknown, path: string, pattern?: RegExp, hint?: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 200) throw new ShippingProfileError(path, 'must be a non-empty string of at most 200 characters');
  if (pattern && !pattern.test(value)) throw new ShippingProfileError(path, `${JSON.stringify(value)} ${hint ?? `must match ${pattern}`}`);
  return value;
}

/** How a document writes amounts: `major` (a file: 7.5 is $7.50) or `minor` (the stored form: 750). */
export type AmountUnits = 'major' | 'minor';

function minorUnits(value: unknown, path: string, currency: string, units: AmountUnits): number {
  if (units === 'minor') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new ShippingProfileError(path, `must be a non-negative whole number of minor units, got ${JSON.stringify(value)}`);
    }
    return value;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new ShippingProfileError(path, `must be a non-negative amount of ${currency}, got ${JSON.stringify(value)}`);
  const minor = toMinor(value, currency);
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || toMajor(minor, currency) !== value) throw new ShippingProfileError(path, `${value} is not an exact amount of ${currency}`);
  return Number(minor);
}

function amounts(value: unknown, path: string, sells: ReadonlySet<string> | undefined, units: AmountUnits): Record<string, number> {
  if (!isObject(value)) throw new ShippingProfileError(path, 'must be an object of amounts by currency, e.g. {"USD": 7.5}');
  const result: Record<string, number> = {};
  for (const [currency, amount] of Object.entries(value)) {
    const at = `${path}.${currency}`;
    if (!CURRENCY.test(currency)) throw new ShippingProfileError(at, `${JSON.stringify(currency)} is not an ISO 4217 currency code (three capital letters)`);
    if (sells && !sells.has(currency)) throw new ShippingProfileError(at, `the merchant sells nothing in ${currency} (its catalog's currencies: ${[...sells].join(', ')})`);
    result[currency] = minorUnits(amount, at, currency, units);
  }
  return result;
}

function documentAmounts(amounts: Readonly<Record<string, number>>, units: AmountUnits): Record<string, number> {
  return Object.fromEntries(Object.entries(amounts).map(([currency, minor]) => [currency, units === 'minor' ? minor : toMajor(BigInt(minor), currency)]));
}

function businessDays(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > 365) {
    throw new ShippingProfileError(path, `must be a whole number of business days from 0 to 365, got ${JSON.stringify(value)}`);
  }
  return value;
}

function estimate(value: unknown, path: string): DeliveryEstimate | null {
  if (value === undefined || value === null) return null;
  const raw = object(value, path, ['min_business_days', 'max_business_days']);
  const minBusinessDays = businessDays(raw.min_business_days, `${path}.min_business_days`);
  const maxBusinessDays = businessDays(raw.max_business_days, `${path}.max_business_days`);
  if (minBusinessDays > maxBusinessDays) throw new ShippingProfileError(`${path}.max_business_days`, 'must be at least min_business_days');
  return { minBusinessDays, maxBusinessDays };
}

function method(value: unknown, path: string, sells: ReadonlySet<string> | undefined, units: AmountUnits): ShippingMethod {
  const raw = object(value, path, ['id', 'title', 'prices', 'free_from', 'delivery_estimate']);
  const prices = amounts(raw.prices, `${path}.prices`, sells, units);
  if (Object.keys(prices).length === 0) throw new ShippingProfileError(`${path}.prices`, 'must price the method in at least one currency');
  return {
    id: text(raw.id, `${path}.id`, ID, 'must be 1-64 lower-case letters, digits, "_" or "-"'),
    title: text(raw.title, `${path}.title`),
    prices,
    freeFrom: raw.free_from === undefined ? {} : amounts(raw.free_from, `${path}.free_from`, sells, units),
    estimate: estimate(raw.delivery_estimate, `${path}.delivery_estimate`),
  };
}

function zone(value: unknown, path: string, sells: ReadonlySet<string> | undefined, units: AmountUnits): ShippingZone {
  const raw = object(value, path, ['id', 'countries', 'regions', 'methods']);
  const id = text(raw.id, `${path}.id`, ID, 'must be 1-64 lower-case letters, digits, "_" or "-"');
  const countries = array(raw.countries ?? [], `${path}.countries`).map((code, i) => {
    const at = `${path}.countries[${i}]`;
    if (typeof code !== 'string' || !isCountryCode(code) || code !== code.toUpperCase()) throw new ShippingProfileError(at, `${JSON.stringify(code)} is not an ISO 3166-1 alpha-2 country code (e.g. "US")`);
    return code;
  });
  const regions = array(raw.regions ?? [], `${path}.regions`).map((code, i) => {
    const at = `${path}.regions[${i}]`;
    const match = typeof code === 'string' ? REGION.exec(code) : null;
    if (!match || !isCountryCode(match[1]!)) throw new ShippingProfileError(at, `${JSON.stringify(code)} is not an ISO 3166-2 region code (e.g. "US-AK")`);
    return code as string;
  });
  if (countries.length + regions.length === 0) throw new ShippingProfileError(`${path}.countries`, 'the zone covers no country or region');
  const methods = array(raw.methods, `${path}.methods`).map((entry, i) => method(entry, `${path}.methods[${i}]`, sells, units));
  if (methods.length === 0) throw new ShippingProfileError(`${path}.methods`, 'the zone has no method');
  methods.forEach((entry, i) => {
    if (methods.findIndex((other) => other.id === entry.id) !== i) throw new ShippingProfileError(`${path}.methods[${i}].id`, `duplicate method id ${JSON.stringify(entry.id)} in the zone`);
  });
  return { id, countries, regions, methods };
}

/**
 * Checks a profile document (`{"zones": [...]}`, the wire form of docs/operating.md). `sells`, when
 * known, is the set of currencies the merchant's catalog is priced in: a price in another is refused.
 */
export function parseShippingProfile(document: unknown, sells?: ReadonlySet<string>, units: AmountUnits = 'major'): ShippingProfile {
  const raw = object(document, '$', ['zones']);
  const zones = array(raw.zones, '$.zones').map((entry, i) => zone(entry, `$.zones[${i}]`, sells, units));
  const owner = new Map<string, number>();
  zones.forEach((entry, i) => {
    if (zones.findIndex((other) => other.id === entry.id) !== i) throw new ShippingProfileError(`$.zones[${i}].id`, `duplicate zone id ${JSON.stringify(entry.id)}`);
    const covered: [string, string][] = [
      ...entry.countries.map((code, j) => [code, `$.zones[${i}].countries[${j}]`] as [string, string]),
      ...entry.regions.map((code, j) => [code, `$.zones[${i}].regions[${j}]`] as [string, string]),
    ];
    for (const [code, path] of covered) {
      const first = owner.get(code);
      if (first !== undefined) throw new ShippingProfileError(path, `${code} is already covered by zone ${JSON.stringify(zones[first]!.id)}; zones must not overlap`);
      owner.set(code, i);
    }
  });
  return { zones };
}

/** The profile as its document: a file's (`major`: what `shipping export` prints and `import` reads back) or the stored form (`minor`). */
export function shippingProfileDocument(profile: ShippingProfile, units: AmountUnits = 'major'): { zones: Json[] } {
  return {
    zones: profile.zones.map((entry) => ({
      id: entry.id,
      countries: [...entry.countries],
      ...(entry.regions.length ? { regions: [...entry.regions] } : {}),
      methods: entry.methods.map((m) => ({
        id: m.id,
        title: m.title,
        prices: documentAmounts(m.prices, units),
        ...(Object.keys(m.freeFrom).length ? { free_from: documentAmounts(m.freeFrom, units) } : {}),
        ...(m.estimate ? { delivery_estimate: { min_business_days: m.estimate.minBusinessDays, max_business_days: m.estimate.maxBusinessDays } } : {}),
      })),
    })),
  };
}
