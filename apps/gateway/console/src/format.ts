export function money(amount: number | undefined, currency: string): string {
  if (amount === undefined) return '—';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/**
 * Any value an operator reads, in words rather than JSON: a list joined by commas, an object as
 * "name: value" pairs, true/false as yes/no, nothing as a dash.
 */
export function readable(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(readable).join(', ');
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return entries.length === 0 ? '—' : entries.map(([k, v]) => `${k.replaceAll('_', ' ')}: ${readable(v)}`).join('; ');
  }
  return String(value);
}
