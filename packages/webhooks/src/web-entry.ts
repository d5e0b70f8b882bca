// `@commerce-gateway/webhooks/web`: the Web Crypto flavour only, so edge bundles never reach node:crypto.
export { signAsync, verifyAsync, generateTestHeaderAsync } from './web.js';
export { signAcpAsync, verifyAcpAsync, generateAcpTestHeaderAsync } from './acp-web.js';
export type { AcpOrder, AcpWebhookEvent, AcpWebhookEventType } from './acp-types.js';
export { signUcpRequestAsync, verifyUcpRequestAsync, signUcpDetachedJwsAsync, verifyUcpDetachedJwsAsync, type UcpWebPrivateKey, type UcpCryptoKey } from './ucp-web.js';
export {
  UcpSignatureError, type UcpSignatureErrorCode, type UcpJwk, type UcpHeaders, type UcpBody,
  type UcpSignRequest, type UcpSignedHeaders, type UcpVerifyRequest, type UcpVerifyOptions, type UcpJwsSignOptions,
} from './ucp-core.js';
export { parseSignatureHeader, formatSignatureHeader, type SignatureHeader } from './header.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export type {
  WebhookEvent, WebhookEventType, WebhookPayload, WebhookSecret, SignatureHeaderValue,
  SignOptions, VerifyOptions, TestHeaderOptions,
} from './types.js';
