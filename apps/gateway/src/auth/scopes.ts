/** Every scope a key can hold (`*` holds them all). `orders:write` is reserved: no operation needs it yet. */
export const SCOPES = ['catalog:read', 'checkout:read', 'checkout:write', 'orders:read', 'orders:write', 'webhooks:write'] as const;
export type Scope = (typeof SCOPES)[number] | '*';

export function parseScopes(raw: string): Scope[] {
  const scopes = raw.split(',').map((s) => s.trim()).filter(Boolean);
  for (const scope of scopes) {
    if (scope !== '*' && !(SCOPES as readonly string[]).includes(scope)) {
      throw new Error(`unknown scope ${JSON.stringify(scope)} (use ${[...SCOPES, '*'].join(', ')})`);
    }
  }
  if (scopes.length === 0) throw new Error('at least one scope is needed');
  return scopes as Scope[];
}

export function hasScopes(granted: readonly string[], required: readonly string[]): boolean {
  return granted.includes('*') || required.every((scope) => granted.includes(scope));
}
