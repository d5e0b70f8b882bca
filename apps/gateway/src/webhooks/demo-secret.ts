/**
 * The built-in, public signing secret of `POST /webhooks/emit` without
 * `signature_secret` (development and sandbox only; documented in the contract).
 * Public by design: it proves nothing, it only lets a receiver's verification
 * code be tried out.
 */
export const DEMO_WEBHOOK_SECRET = 'whsec_demo_commerce_gateway';
