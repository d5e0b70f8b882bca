import type { Services } from '../services.js';
import { UsageError } from './output.js';

/**
 * Refuses a `--merchant` that names no merchant, with the command that creates it: a typo must
 * not create a merchant. (The services still create merchants where they always did — the demo
 * seed and tests rely on it; the refusal is the CLI's.)
 */
export async function requireMerchants(services: Pick<Services, 'merchants'>, ids: readonly string[]): Promise<void> {
  const missing = await services.merchants.missing(ids);
  if (missing.length === 0) return;
  const names = missing.map((id) => JSON.stringify(id)).join(', ');
  throw new UsageError(`no merchant ${names} (create ${missing.length === 1 ? 'it' : 'them'} first: pnpm gateway merchants create ${missing.join(' ')})`);
}
