/**
 * A request path as a log line may hold it: every segment that is an email address (something@
 * something, percent-encoded or not) replaced by `[email]`. Customers are addressed by id
 * (the admin API refuses an email in their path), but a path is logged whatever it holds — also one
 * refused — and a log never holds a buyer's email.
 *
 *   withoutEmails('/admin/merchants/shop/customers/ada@example.com') // '/admin/merchants/shop/customers/[email]'
 */
const EMAIL_SEGMENT = /[^/]*(?:@|%40)[^/]*/gi;

export function withoutEmails(path: string): string {
  return path.includes('@') || /%40/i.test(path) ? path.replace(EMAIL_SEGMENT, '[email]') : path;
}
