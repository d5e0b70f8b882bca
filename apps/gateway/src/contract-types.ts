/**
 * The contract's types, as generated from openapi/ into the SDK. The gateway
 * never re-declares a shape the contract already defines.
 */
export type {
  Address,
  AmountBreakdown,
  CheckoutSession,
  CreateCheckoutSessionRequest,
  Customer,
  Order,
  ShippingQuote,
  TaxSummary,
  UpdateCheckoutSessionRequest,
  Image,
  Inventory,
  LineItem,
  LineItemInput,
  Product,
  ProductSearchResponse,
  Variant,
  WebhookEmitRequest,
  WebhookEmitResult,
  WebhookEvent,
  WebhookEventType,
  CancelCheckoutSessionData,
  CompleteCheckoutSessionData,
  CreateCheckoutSessionData,
  EmitWebhookData,
  GetCheckoutSessionData,
  GetProductData,
  SearchProductsData,
  UpdateCheckoutSessionData,
} from '@commerce-gateway/sdk';
