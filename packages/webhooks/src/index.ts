export { sign, verify, generateTestHeader } from './node.js';
export { signAsync, verifyAsync, generateTestHeaderAsync } from './web.js';
export { signAcp, verifyAcp, generateAcpTestHeader } from './acp-node.js';
export { signAcpAsync, verifyAcpAsync, generateAcpTestHeaderAsync } from './acp-web.js';
export { acpWebhookMiddleware, type AcpWebhookMiddlewareOptions, type AcpWebhookRequest } from './acp-express.js';
export type { AcpOrder, AcpWebhookEvent, AcpWebhookEventType } from './acp-types.js';
export { signUcpRequest, verifyUcpRequest, signUcpDetachedJws, verifyUcpDetachedJws, type UcpNodePrivateKey } from './ucp-node.js';
export { signUcpRequestAsync, verifyUcpRequestAsync, signUcpDetachedJwsAsync, verifyUcpDetachedJwsAsync, type UcpWebPrivateKey, type UcpCryptoKey } from './ucp-web.js';
export { UcpSignatureError, type UcpSignatureErrorCode } from './ucp/errors.js';
export type { UcpJwk, UcpHeaders, UcpBody, UcpSignRequest, UcpSignedHeaders, UcpVerifyRequest, UcpVerifyOptions } from './ucp/types.js';
export type { UcpJwsSignOptions } from './ucp/jws.js';
export { parseSignatureHeader, formatSignatureHeader, type SignatureHeader } from './header.js';
export {
  parseSfDictionary, SfSyntaxError, SfToken, type SfBareItem, type SfItem, type SfInnerList, type SfDictionaryMember,
} from './ucp/sf-dictionary.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export {
  webhookMiddleware, type WebhookMiddlewareOptions, type WebhookRequest, type WebhookResponse,
} from './express.js';
export type {
  WebhookEvent, WebhookEventType, WebhookPayload, WebhookSecret, SignatureHeaderValue,
  SignOptions, VerifyOptions, TestHeaderOptions,
} from './types.js';
