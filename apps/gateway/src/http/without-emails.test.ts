import { describe, expect, it } from 'vitest';
import { withoutEmails } from './without-emails.js';

describe('withoutEmails', () => {
  it('replaces every path segment holding an email, encoded or not, and leaves other paths as they are', () => {
    expect(withoutEmails('/admin/merchants/shop/customers/ada@example.com')).toBe('/admin/merchants/shop/customers/[email]');
    expect(withoutEmails('/admin/merchants/shop/customers/Ada%40Example.com/x')).toBe('/admin/merchants/shop/customers/[email]/x');
    expect(withoutEmails('/orders/ord_1')).toBe('/orders/ord_1');
  });
});
