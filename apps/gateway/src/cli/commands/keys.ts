import type { Command } from 'commander';
import type { GatewayEnv } from '../../config/config.js';
import type { Tier } from '../../auth/principal.js';
import { parseScopes } from '../../auth/scopes.js';
import { KEY_PREFIX } from '../../auth/api-key.js';
import { SIGNATURE_SCHEMES, type SignatureScheme } from '../../auth/request-signature-v2.js';
import { requireMerchants } from '../merchants-exist.js';
import { out, result, UsageError } from '../output.js';
import { table } from '../table.js';
import { choice, list, positiveInt } from '../parse.js';
import { withDatabase } from '../with-database.js';

interface CreateOptions {
  merchant: string[];
  name?: string;
  env: GatewayEnv;
  scopes: string;
  tier?: Tier;
  rpm?: number;
  rpd?: number;
  signingSecret?: boolean;
  signing?: SignatureScheme;
}

export function keysCommand(program: Command): void {
  const keys = program.command('keys').description('create, list and revoke API keys');

  keys
    .command('create')
    .description('create a key; prints its id, its signing secret when asked, and the key alone on the last line')
    .requiredOption('--merchant <ids>', 'merchant id(s), comma-separated (each must exist: merchants create)', list)
    .option('--name <name>', 'what the key is for (1-100 characters), shown in keys list and the console')
    .option('--env <env>', 'development | sandbox | production (picks the key prefix)', choice('--env', ['development', 'sandbox', 'production'] as const), 'development')
    .option('--scopes <scopes>', 'catalog:read,checkout:read,checkout:write,orders:read,orders:write,webhooks:write or *', '*')
    .option('--tier <tier>', 'sandbox | production | enterprise (default: by environment)', choice('--tier', ['sandbox', 'production', 'enterprise'] as const))
    .option('--rpm <n>', 'requests per minute (enterprise)', positiveInt('--rpm'))
    .option('--rpd <n>', 'requests per day (enterprise)', positiveInt('--rpd'))
    .option('--signing-secret', 'require signed requests from this key and print the secret (same as --signing body)')
    .option('--signing <scheme>', "require signed requests: body (SPEC's Signature, or X-Request-Signature) | v2 (X-Request-Signature only); prints the secret", choice('--signing', SIGNATURE_SCHEMES))
    .action(async (options: CreateOptions) => {
      let scopes;
      try {
        scopes = parseScopes(options.scopes);
      } catch (error) {
        throw new UsageError(`--scopes: ${(error as Error).message}`);
      }
      const created = await withDatabase(async (_db, services) => {
        await requireMerchants(services, options.merchant);
        return services.keys.create({
            merchantIds: options.merchant,
            ...(options.name === undefined ? {} : { name: options.name }),
            env: options.env,
            scopes,
            ...(options.tier ? { tier: options.tier } : {}),
            ...(options.rpm ? { rpm: options.rpm } : {}),
            ...(options.rpd ? { rpd: options.rpd } : {}),
          signingSecret: Boolean(options.signingSecret || options.signing),
          ...(options.signing ? { signatureScheme: options.signing } : {}),
        });
      });
      result({ id: created.id, key: created.key, ...(created.signingSecret ? { signing_secret: created.signingSecret } : {}) }, () => {
        out(`id: ${created.id}`);
        if (created.signingSecret) out(`signing secret: ${created.signingSecret}`);
        out(created.key);
      });
    });

  keys
    .command('list')
    .description('list keys (never their secrets)')
    .action(async () => {
      const records = await withDatabase((_db, services) => services.keys.list());
      const json = records.map((k) => ({
        id: k.id,
        name: k.name,
        key: `${KEY_PREFIX[k.environment]}…${k.last4}`,
        environment: k.environment,
        merchants: k.merchantIds,
        scopes: k.scopes,
        tier: k.tier,
        rpm: k.rpm ?? null,
        rpd: k.rpd ?? null,
        signing: Boolean(k.signingSecret),
        signature_scheme: k.signingSecret ? k.signatureScheme : null,
        created_at: k.createdAt.toISOString(),
        revoked_at: k.revokedAt?.toISOString() ?? null,
      }));
      result(json, () => {
        if (records.length === 0) return out('no keys');
        table(
          // NAME last: free text, it may hold spaces.
          ['ID', 'KEY', 'MERCHANTS', 'SCOPES', 'TIER', 'LIMITS', 'SIGNING', 'CREATED', 'STATUS', 'NAME'],
          json.map((k) => [
            k.id,
            k.key,
            k.merchants.join(','),
            k.scopes.join(','),
            k.tier,
            k.rpm || k.rpd ? `rpm=${k.rpm ?? '-'} rpd=${k.rpd ?? '-'}` : '-',
            k.signature_scheme ?? 'off',
            k.created_at,
            k.revoked_at ? `revoked ${k.revoked_at}` : 'active',
            k.name ?? '-',
          ]),
        );
      });
    });

  keys
    .command('signing')
    .description("set which request signatures a key with a signing secret takes: v2 (X-Request-Signature only) or body (also SPEC's Signature); every process from its next request")
    .argument('<key-id>')
    .argument('<scheme>', 'body | v2', choice('<scheme>', SIGNATURE_SCHEMES))
    .action(async (id: string, scheme: SignatureScheme) => {
      const found = await withDatabase((_db, services) => services.keys.setSignatureScheme(id, scheme));
      if (!found) throw new UsageError(`no key ${JSON.stringify(id)}`);
      result({ id, signature_scheme: scheme }, () => out(`${id} now takes ${scheme === 'v2' ? 'X-Request-Signature (v2) only' : "SPEC's Signature or X-Request-Signature"}`));
    });

  keys
    .command('revoke')
    .description('revoke a key by its id or by the key itself; takes effect on the next request')
    .argument('<key-id-or-key>')
    .action(async (target: string) => {
      const found = await withDatabase((_db, services) => services.keys.revoke(target));
      if (!found) throw new UsageError(`no key ${target.startsWith('sk_') ? 'matches that value' : JSON.stringify(target)}`);
      result({ revoked: target.startsWith('sk_') ? 'the key' : target }, () => out(`revoked ${target.startsWith('sk_') ? 'the key' : target}`));
    });
}
