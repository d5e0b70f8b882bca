export { sign, verify, generateTestHeader } from './node.js';
export { signAsync, verifyAsync, generateTestHeaderAsync } from './web.js';
export { parseSignatureHeader, formatSignatureHeader, type SignatureHeader } from './header.js';
export { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
export {
  webhookMiddleware, type WebhookMiddlewareOptions, type WebhookRequest, type WebhookResponse,
} from './express.js';
export type {
  WebhookEvent, WebhookEventType, WebhookPayload, WebhookSecret, SignatureHeaderValue,
  SignOptions, VerifyOptions, TestHeaderOptions,
} from './types.js';
