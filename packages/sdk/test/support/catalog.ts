import type { CommerceGateway, Product } from '../../src/index.js';

/** Products of the seeded demo catalog that can be bought: in stock, policy deny, shipped. */
export async function buyableProducts(gw: CommerceGateway, count = 3): Promise<Product[]> {
  const page = await gw.products.search({ category: 'chairs', page_size: 50 });
  const buyable = page.items.filter((p) => p.variants.length > 0 && p.variants[0]!.inventory.quantity >= 10);
  if (buyable.length < count) throw new Error(`the demo catalog has only ${buyable.length} buyable chairs`);
  return buyable.slice(0, count);
}
