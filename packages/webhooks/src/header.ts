import { fail, type SignatureHeaderName } from './messages.js';

/** `X-Webhook-Signature`, parsed: the signing time and every v1 digest (lowercase hex). */
export interface SignatureHeader {
  timestamp: number;
  signatures: string[];
}

const SECONDS = /^\d{1,15}$/;
const V1 = /^[0-9a-f]{64}$/i;
/** The form the gateway sends outside rotations; one regex instead of the general loop (verify's hot path). */
const CANONICAL = /^t=(\d{1,15}),v1=([0-9a-f]{64})$/;

/**
 * Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>…]` (`X-Webhook-Signature` and ACP's `Merchant-Signature`
 * share the form). Throws `malformed_header` on anything off; skips unknown schemes (`v0=`, `v2=` …)
 * so a future scheme never breaks today's receivers. `headerName` only names the header in errors.
 */
export function parseSignatureHeader(value: string, headerName?: SignatureHeaderName): SignatureHeader {
  const malformed = (detail: string) => fail.malformedHeader(detail, headerName);
  if (typeof value !== 'string') throw malformed('not a string');
  const canonical = CANONICAL.exec(value);
  if (canonical) return { timestamp: Number(canonical[1]), signatures: [canonical[2]!] };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const element of value.split(',')) {
    const eq = element.indexOf('=');
    const key = element.slice(0, Math.max(eq, 0)).trim();
    const item = element.slice(eq + 1).trim();
    if (eq < 0 || key === '') throw malformed('an element is not key=value');
    if (key === 't') {
      if (timestamp !== undefined) throw malformed('more than one t');
      if (!SECONDS.test(item)) throw malformed('t is not a whole number of seconds');
      timestamp = Number(item);
    } else if (key === 'v1') {
      if (!V1.test(item)) throw malformed('a v1 is not 64 hex digits');
      signatures.push(item.toLowerCase());
    }
  }
  if (timestamp === undefined) throw malformed('no t');
  if (signatures.length === 0) throw malformed('no v1');
  return { timestamp, signatures };
}

/** Builds the header value: `t=<timestamp>,v1=<sig>[,v1=<sig>…]`. */
export function formatSignatureHeader(timestamp: number, signatures: readonly string[]): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`timestamp must be whole Unix seconds, got ${String(timestamp)}`);
  }
  if (signatures.length === 0 || !signatures.every((s) => V1.test(s))) {
    throw new TypeError('signatures must be one or more 64-digit hex HMAC-SHA256 digests');
  }
  return `t=${timestamp},${signatures.map((s) => `v1=${s.toLowerCase()}`).join(',')}`;
}
