// Calls the gateway at GATEWAY_URL with GATEWAY_API_KEY through the installed package's CJS build
// and prints what it saw as one JSON line.
const { CommerceGateway, CommerceGatewayError, NotFoundError, MethodNotAllowedError } = require('@commerce-gateway/sdk');

async function main() {
  const gw = new CommerceGateway({ apiKey: process.env.GATEWAY_API_KEY, baseUrl: process.env.GATEWAY_URL });
  const page = await gw.products.search({ category: 'chairs', page_size: 3 });
  const product = page.items.find((p) => p.variants[0] && p.variants[0].inventory.quantity > 0);
  const session = await gw.checkoutSessions.create({ items: [{ product_id: product.id }] });
  await gw.checkoutSessions.cancel(session.id);
  const notFound = await gw.products.retrieve('no-such-product').catch((error) => error);
  const notAllowed = await gw.checkoutSessions.cancel(session.id).catch((error) => error);

  console.log(JSON.stringify({
    resolved: require.resolve('@commerce-gateway/sdk'),
    // ky is ESM-only; the CJS build carries its own copy, so nothing requires it.
    kyRequired: Object.keys(require.cache).some((file) => /[\\/]node_modules[\\/]ky[\\/]/.test(file)),
    products: page.items.length,
    session: session.id,
    notFound: notFound instanceof NotFoundError && notFound instanceof CommerceGatewayError && notFound.status === 404,
    notAllowed: notAllowed instanceof MethodNotAllowedError && notAllowed.code === 'method_not_allowed',
  }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
