/** The Web Crypto pieces both Web flavours share. Nothing here imports a node: module. */
import type { WebhookPayload } from './types.js';
import { rawBytes } from './payload.js';

export const HMAC = { name: 'HMAC', hash: 'SHA-256' } as const;
let encoder: InstanceType<typeof TextEncoder> | undefined;
export const utf8 = (text: string) => (encoder ??= new TextEncoder()).encode(text) as Uint8Array<ArrayBuffer>;

export function subtle() {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error('Web Crypto (globalThis.crypto.subtle) is unavailable here: use the node:crypto flavour from "@commerce-gateway/webhooks" instead.');
  return subtle;
}

export const hmacKey = (secret: string) => subtle().importKey('raw', utf8(secret), HMAC, false, ['sign', 'verify']);
export const bytesOf = (payload: WebhookPayload) => (typeof payload === 'string' ? utf8(payload) : rawBytes(payload)) as Uint8Array<ArrayBuffer>;
