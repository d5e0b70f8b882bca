import type { Logger } from 'pino';
import { buildAdminServices, type AdminServices } from './admin/admin-services.js';
import { KeyService } from './auth/key-service.js';
import { KeyStore } from './auth/key-store.js';
import { buildCatalogService, type SearchConfig } from './catalog/build-catalog-search.js';
import type { CatalogService } from './catalog/catalog-service.js';
import { CatalogImportService } from './catalog/import/catalog-import-service.js';
import { DiscountService } from './discounts/discount-service.js';
import { DiscountStore } from './discounts/discount-store.js';
import { MerchantCache } from './db/merchant-cache.js';
import { FeedService } from './catalog/feed/feed-service.js';
import { FeedStore } from './catalog/feed/feed-store.js';
import { CustomerService } from './customers/customer-service.js';
import { CustomerStore } from './customers/customer-store.js';
import { BuyerSessionsStore } from './checkout/buyer-sessions-store.js';
import { checkoutDirectory } from './checkout/customer-directory.js';
import { CheckoutService } from './checkout/checkout-service.js';
import { CheckoutStore } from './checkout/checkout-store.js';
import { paymentProvider } from './payments/providers.js';
import { PaymentOperations } from './payments/operations/payment-operations.js';
import { PaymentOperationStore } from './payments/operations/payment-operation-store.js';
import { profilePricing } from './checkout/pricing/default-pricing.js';
import { defaultPaymentProvider, loadConfig, type Config } from './config/config.js';
import type { Database } from './db/database.js';
import { IdempotencyStore } from './idempotency/idempotency-store.js';
import { SHIPPING_PROFILES_CHANNEL, ShippingProfileStore } from './shipping/shipping-profile-store.js';
import { ShippingService } from './shipping/shipping-service.js';
import { MerchantService } from './merchants/merchant-service.js';
import { MerchantStore } from './merchants/merchant-store.js';
import { MerchantPaymentAccounts } from './merchants/merchant-payment-accounts.js';
import { OrderService } from './orders/order-service.js';
import { OrderStore } from './orders/order-store.js';
import { DisputeStore } from './payments/disputes/dispute-store.js';
import { PaymentEventService } from './settlement/provider-events/payment-event-service.js';
import { PaymentOrderStore } from './settlement/provider-events/payment-order-store.js';
import { PspFactsRecorder } from './settlement/provider-events/payment-state-recorder.js';
import { operationsRepairs } from './settlement/reconciliation/operations-repairs.js';
import { ReconciliationService } from './settlement/reconciliation/reconciliation-service.js';
import { ReconciliationStore } from './settlement/reconciliation/reconciliation-store.js';
import { toOrder } from './orders/order-mapper.js';
import { orderPayment } from './orders/order-payment.js';
import { ProviderEventStore } from './settlement/provider-events/provider-event-store.js';
import { WebhookEndpointService } from './webhooks/endpoint-service.js';
import { EmitService } from './webhooks/emit-service.js';
import { OutboxStore } from './webhooks/outbox-store.js';
import { WebhookStore } from './webhooks/webhook-store.js';
import { SigningKeyRing } from './ucp/signing-keys.js';
import { SigningKeyStore } from './ucp/webhooks/signing-key-store.js';
import { UcpOrderService } from './ucp/order/ucp-order-service.js';
import { UcpOrderStore } from './ucp/order/ucp-order-store.js';

/** Every service, each over the stores it needs: what the HTTP handlers and the CLI both call. */
export interface Services {
  merchants: MerchantService;
  /** Each merchant's Stripe connected account (`paymentAccounts.cache.listen(db)` to hold them in memory). */
  paymentAccounts: MerchantPaymentAccounts;
  keys: KeyService;
  catalog: CatalogService;
  imports: CatalogImportService;
  discounts: DiscountService;
  /** Customers: saved buyers and addresses, their files, data-subject export and erasure. */
  customers: CustomerService;
  feeds: FeedService;
  checkout: CheckoutService;
  /** Shipping profiles: import/export, and the cache checkout prices from (`shipping.profiles.listen(db)` to hold them in memory). */
  shipping: ShippingService;
  orders: OrderService;
  /** Payment operations: what the payment worker runs (payments/operations/payment-worker.ts). */
  payments: PaymentOperations;
  /** What the PSP's webhooks say of payments, applied to orders (settlement/provider-events/; POST /payments/stripe/webhooks). */
  paymentEvents: PaymentEventService;
  /** Orders compared with the PSP's payments, drift listed and repaired (`gateway payments reconcile`, the admin API). */
  reconciliation: ReconciliationService;
  idempotency: IdempotencyStore;
  webhooks: EmitService;
  webhookEndpoints: WebhookEndpointService;
  /** The business's UCP signing keys (UCP_SIGNING_KEY, or persisted: `await ucpSigningKeys.load()` reads them — see ucp/signing-keys.ts). */
  ucpSigningKeys: SigningKeyRing;
  /** Orders placed through UCP, as UCP orders (GET /ucp/orders/{id}, the shipping simulation). */
  ucpOrders: UcpOrderService;
  /** Operator credentials, the admin API's audit log and reads (admin/). */
  admin: AdminServices;
}

export interface ServiceOptions {
  /** Settings the services act on (default: loadConfig() of the process environment). */
  config?: Pick<Config, 'env' | 'webhookAllowPrivateTargets'> & Partial<SearchConfig> & Partial<Pick<Config, 'pricing' | 'paymentProvider' | 'stripeSecretKey' | 'stripeApiUrl' | 'paymentLeaseMs' | 'ucpSigningKey' | 'orderUrlTemplate' | 'storefrontUrl'>>;
  logger?: Logger;
}

/** Builds every service over one database; the only place (with the delivery worker's start) that makes stores. */
export function buildServices(db: Database, { config = loadConfig(), logger }: ServiceOptions = {}): Services {
  const catalog = buildCatalogService(db, { config, logger, listen: (channel, handlers) => db.listen(channel, handlers) });
  const merchantStore = new MerchantStore(db);
  const merchants = new MerchantService(merchantStore);
  const paymentAccounts = new MerchantPaymentAccounts(merchantStore);
  const payments = paymentProvider(config.paymentProvider ?? defaultPaymentProvider(config.env), config.env, {
    stripe: config,
    stripeAccounts: (merchantId) => paymentAccounts.stripeAccount(merchantId),
  });
  // Every movement of money recorded around the PSP's call (payments/operations/); a refund the PSP finally refuses is the order's to show.
  const orderStore = new OrderStore(db);
  const paymentOperations = new PaymentOperations(new PaymentOperationStore(db), payments, orderStore, {
    leaseMs: config.paymentLeaseMs,
    onRefundFailed: (operation, reason) => orders.refundRefused(operation, reason),
  });
  const shippingStore = new ShippingProfileStore(db, (merchantId) => catalog.currencies(merchantId));
  const shipping = new ShippingService(shippingStore, new MerchantCache(SHIPPING_PROFILES_CHANNEL, (merchantId) => shippingStore.find(merchantId)));
  const discountStore = new DiscountStore(db);
  const discounts = new DiscountService(discountStore, (merchantId) => catalog.currencies(merchantId));
  const idempotency = new IdempotencyStore(db);
  // An erasure reaches each table through its owner's store: idempotent answers, redemptions, sessions, events.
  const buyerRecords = { forgetAnswersHolding: idempotency.forgetAnswersHolding.bind(idempotency), anonymizeRedemptions: discountStore.anonymizeRedemptions.bind(discountStore) };
  const customers = new CustomerService(db, new CustomerStore(db), buyerRecords, new BuyerSessionsStore(db), new WebhookStore(db));
  const checkout = new CheckoutService(
    db,
    new CheckoutStore(db),
    profilePricing(config.pricing ?? {}, (merchantId) => shipping.profiles.get(merchantId)),
    paymentOperations,
    (merchantId) => catalog.readModel.catalog(merchantId),
    discounts,
    checkoutDirectory(customers),
  );
  const orders: OrderService = new OrderService(db, orderStore, new OutboxStore(), paymentOperations, new DisputeStore(db));
  const disputes = new DisputeStore(db);
  const paymentEvents = new PaymentEventService({
    db,
    handled: new ProviderEventStore(),
    paymentOrders: new PaymentOrderStore(),
    orders: orderStore,
    disputes,
    outbox: new OutboxStore(),
    recorder: new PspFactsRecorder(orderStore, paymentOperations.store),
    // Our events carry the order as GET /orders/{id} shows it: with its payment (operations and disputes, read in the event's transaction).
    toOrder: async (tx, record) => {
      const operations = await paymentOperations.store.ofSessions([record.session.id], tx);
      return toOrder(record, orderPayment(record.session.order.id, operations, await disputes.ofOrder(record.session.order.id, tx)));
    },
    ...(logger ? { logger } : {}),
  });
  const reconciliation = new ReconciliationService(new ReconciliationStore(db), payments, operationsRepairs(db, paymentOperations, paymentEvents));
  const imports = new CatalogImportService(db, catalog.searchIndex.embedder);
  return {
    merchants,
    paymentAccounts,
    keys: new KeyService(new KeyStore(db), (error) => logger?.warn({ err: error }, 'API keys could not be loaded; authentications read the database until they are')),
    catalog,
    imports,
    discounts,
    customers,
    feeds: new FeedService(new FeedStore(db)),
    checkout,
    shipping,
    orders,
    payments: paymentOperations,
    paymentEvents,
    reconciliation,
    idempotency,
    webhooks: new EmitService({ sessions: checkout, env: config.env, allowPrivateTargets: config.webhookAllowPrivateTargets, logger }),
    webhookEndpoints: new WebhookEndpointService(new WebhookStore(db)),
    ucpOrders: new UcpOrderService(new UcpOrderStore(db), orders, { orderUrlTemplate: config.orderUrlTemplate, storefrontUrl: config.storefrontUrl }),
    ucpSigningKeys: new SigningKeyRing({ signingKey: config.ucpSigningKey, env: config.env, store: new SigningKeyStore(db), onError: (error) => logger?.warn({ err: error }, 'UCP signing keys could not be reloaded; the keys held are kept') }),
    admin: buildAdminServices(
      db,
      { commerce: { customers, discounts, shipping }, imports, catalog, paymentAccounts, reconciliation, merchants, figures: { orders: orderStore, payments: paymentOperations.store }, endpointUrls: { allowPrivate: config.webhookAllowPrivateTargets, requireHttps: config.env === 'production' } },
      logger,
    ),
  };
}
