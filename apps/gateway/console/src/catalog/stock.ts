import type { Product } from '../api';

/** "12 in stock", "3 · limited", "out of stock": a product's units on hand (its variants' summed) and status. */
export function stockOf(p: Pick<Product, 'availability' | 'variants'>): string {
  const a = p.availability;
  if (!a) return '—';
  if (a.status === 'out_of_stock') return a.policy === 'continue' ? '0 · backorders' : 'out of stock';
  return `${a.quantity.toLocaleString()}${a.status === 'limited' ? ' · limited' : ' in stock'}`;
}
