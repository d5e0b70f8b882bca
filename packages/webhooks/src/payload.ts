import { fail } from './messages.js';
import type { WebhookEvent, WebhookPayload } from './types.js';

// Realm-independent checks: a body may come from another realm (vm, workers, test environments).
const tag = (value: unknown) => Object.prototype.toString.call(value);
export const isArrayBuffer = (value: unknown): value is ArrayBuffer => tag(value) === '[object ArrayBuffer]';

/** Refuses anything but raw bytes or text — above all, the already-parsed JSON. */
export function assertPayload(payload: unknown): asserts payload is WebhookPayload {
  if (typeof payload === 'string' || ArrayBuffer.isView(payload) || isArrayBuffer(payload)) return;
  throw fail.notRawBody(kindOf(payload));
}

/** A byte view of a binary payload (never a copy). */
export function rawBytes(payload: ArrayBuffer | ArrayBufferView): Uint8Array {
  if (payload instanceof Uint8Array) return payload; // Buffer included: the common case, kept allocation-free
  if (isArrayBuffer(payload)) return new Uint8Array(payload);
  return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
}

let decoder: InstanceType<typeof TextDecoder> | undefined;

/** JSON.parse of the verified body; `invalid_body` when it is not UTF-8 JSON. */
export function parseEvent<T>(payload: WebhookPayload): WebhookEvent<T> {
  try {
    const text = typeof payload === 'string' ? payload : (decoder ??= new TextDecoder('utf-8', { fatal: true })).decode(rawBytes(payload));
    return JSON.parse(text) as WebhookEvent<T>;
  } catch (cause) {
    throw fail.notJson(cause);
  }
}

/** How an error message names a wrong value: "undefined", "an object (parsed JSON?)", "a number"… */
export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array (parsed JSON?)';
  if (typeof value === 'object') return 'an object (parsed JSON?)';
  return `a ${typeof value}`;
}
