// `@commerce-gateway/webhooks/web`: the Web Crypto flavour only, so edge bundles never reach node:crypto.
export { signAsync, verifyAsync, generateTestHeaderAsync } from './web.js';
export { signAcpAsync, verifyAcpAsync, generateAcpTestHeaderAsync } from './acp-web.js';
export type { AcpOrder, AcpWebhookEvent, AcpWebhookEventType } from './acp-types.js';
export { signUcpRequestAsync, verifyUcpRequestAsync, signUcpDetachedJwsAsync, verifyUcpDetachedJwsAsync, type UcpWebPrivateKey, type UcpCryptoKey } from './ucp-web.js';
export { UcpSignatureError, type UcpSignatureErrorCode } from './ucp/errors.js';
export type { UcpJwk, UcpHeaders, UcpBody, UcpSignRequest, UcpSignedHeaders, UcpVerifyRequest, UcpVerifyOptions } from './ucp/types.js';
export type { UcpJwsSignOptions } from './ucp/jws.js';
export { parseSignatureHeader, formatSignatureHeader, type SignatureHeader } from './header.js';
export {
  parseSfDictionary, SfSyntaxError, SfToken, type SfBareItem, type SfItem, type SfInnerList, type SfDictionaryMember,
} from './ucp/sf-dictionary.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export type {
  WebhookEvent, WebhookEventType, WebhookPayload, WebhookSecret, SignatureHeaderValue,
  SignOptions, VerifyOptions, TestHeaderOptions,
} from './types.js';
