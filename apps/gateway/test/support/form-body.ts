/**
 * Stripe's request bodies and queries are form-encoded with brackets for nesting
 * (`metadata[merchant_id]=m`, `expand[0]=latest_charge`, `expand[]=x`): this turns them into
 * plain objects for the Stripe double, and drops the keys a test names.
 */
type Value = string | Value[] | { [key: string]: Value };

export function parseForm(text: string): Record<string, Value> {
  const root: Record<string, Value> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, Value> | Value[] = root;
    path.forEach((part, index) => {
      const last = index === path.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(path[index + 1]!);
      const slot = Array.isArray(node) ? (part === '' ? node.length : Number(part)) : part;
      const holder = node as Record<string | number, Value>;
      if (last) holder[slot] = value;
      else {
        holder[slot] ??= nextIsIndex ? [] : {};
        node = holder[slot] as Record<string, Value> | Value[];
      }
    });
  }
  return root;
}

/** `text` without the form keys `drop` names (exactly as sent, e.g. `payment_method_data[shared_payment_granted_token]`). */
export function withoutKeys(text: string, drop: readonly string[]): { text: string; dropped: string[] } {
  const kept = new URLSearchParams();
  const dropped: string[] = [];
  for (const [key, value] of new URLSearchParams(text)) {
    if (drop.includes(key)) dropped.push(key);
    else kept.append(key, value);
  }
  return { text: kept.toString(), dropped };
}
