import type { Command } from 'commander';
import { loadConfig } from '../../config/config.js';
import { DeliveryError, UnsafeTargetError } from '../../kernel/outbound/delivery-errors.js';
import { DEFAULT_ROTATION_OVERLAP_MS } from '../../webhooks/endpoint-secrets.js';
import { vetTarget } from '../../kernel/outbound/safe-target.js';
import type { DeliveryRecord, DeliveryState, WebhookProtocol } from '../../webhooks/webhook-store.js';
import { requireMerchants } from '../merchants-exist.js';
import { err, out, result, UsageError } from '../output.js';
import { choice, positiveInt } from '../parse.js';
import { table } from '../table.js';
import { withDatabase } from '../with-database.js';

function httpUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // fall through
  }
  throw new UsageError(`--url must be an http(s) URL, not ${JSON.stringify(raw)}`);
}

/**
 * Refuses an endpoint the delivery worker could never send to: one the SSRF guard refuses in this
 * environment (WEBHOOK_ALLOW_PRIVATE_TARGETS off: loopback, private, link-local… addresses, or a
 * host name resolving to one). A host that does not resolve now is only warned about: DNS may
 * change, and each delivery checks the address again.
 */
async function refuseUndeliverable(url: string): Promise<void> {
  if (loadConfig().webhookAllowPrivateTargets) return;
  try {
    await vetTarget(url, { allowPrivate: false, dnsTimeoutMs: 5_000 });
  } catch (error) {
    if (error instanceof UnsafeTargetError) throw new UsageError(`--url ${error.message} (WEBHOOK_ALLOW_PRIVATE_TARGETS is off)`);
    if (error instanceof DeliveryError) return err(`warning: ${error.reason}; the endpoint is added, and every delivery checks its address again`);
    throw error;
  }
}

/** A signing secret given with --secret: 16 to 256 visible ASCII characters (e.g. one an agent platform issued). */
export function endpointSecret(raw: string): string {
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new UsageError('--secret must be 16 to 256 visible ASCII characters (no spaces)');
  return raw;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `24h`, `30m`, `90s`, `2d`, `1500ms` or `0` → milliseconds. */
export function duration(raw: string): number {
  const text = raw.trim();
  if (text === '0') return 0;
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  const value = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : NaN;
  if (!Number.isSafeInteger(value)) throw new UsageError(`--overlap must be a duration like 24h, 30m or 0, not ${JSON.stringify(raw)}`);
  return value;
}

const PROTOCOLS: readonly WebhookProtocol[] = ['gateway', 'acp'];

export function webhooksCommand(program: Command): void {
  const webhooks = program.command('webhooks').description('manage where merchants\' automatic events go');
  webhooks
    .command('add-endpoint')
    .description('add an endpoint for a merchant\'s automatic events; prints its signing secret on the last line')
    .requiredOption('--merchant <id>', 'merchant id')
    .requiredOption('--url <url>', 'http(s) URL that receives the events', httpUrl)
    .option('--protocol <protocol>', 'gateway: our events, X-Webhook-Signature; acp: ACP 2026-04-17 order_create/order_update, Merchant-Signature', choice('--protocol', PROTOCOLS), 'gateway')
    .option('--secret <secret>', 'the signing secret to use (e.g. one the agent platform issued); generated when omitted', endpointSecret)
    .action(async (options: { merchant: string; url: string; protocol: WebhookProtocol; secret?: string }) => {
      await refuseUndeliverable(options.url);
      const endpoint = await withDatabase(async (_db, services) => {
        await requireMerchants(services, [options.merchant]);
        return services.webhookEndpoints.add(options.merchant, options.url, options.protocol, options.secret);
      });
      result({ id: endpoint.id, merchant: endpoint.merchantId, url: endpoint.url, protocol: endpoint.protocol, secret: endpoint.secret }, () => {
        out(`id: ${endpoint.id}`);
        out(`url: ${endpoint.url}`);
        out(`protocol: ${endpoint.protocol}`);
        out(endpoint.secret);
      });
    });
  webhooks
    .command('rotate-secret')
    .description('give an endpoint a new signing secret; deliveries carry both secrets\' signatures during the overlap; prints the new secret on the last line')
    .requiredOption('--endpoint <id>', 'endpoint id (as add-endpoint printed it)')
    .option('--overlap <duration>', 'how long the old secret still signs, e.g. 24h, 30m, 0', duration, DEFAULT_ROTATION_OVERLAP_MS)
    .action(async (options: { endpoint: string; overlap: number }) => {
      const rotated = await withDatabase((_db, services) => services.webhookEndpoints.rotateSecret(options.endpoint, options.overlap));
      result({ id: rotated.id, secret: rotated.secret, previous_secret_expires_at: rotated.previousSecretExpiresAt?.toISOString() ?? null }, () => {
        out(`id: ${rotated.id}`);
        out(
          rotated.previousSecretExpiresAt
            ? `previous secret signs too until ${rotated.previousSecretExpiresAt.toISOString()}`
            : 'previous secret retired now',
        );
        out(rotated.secret);
      });
    });
  for (const name of ['enable', 'enable-endpoint']) {
    webhooks
      .command(name)
      .description(`re-enable an endpoint that was disabled (by webhooks disable, or because it answered 410 Gone); new events go to it again${name === 'enable' ? '' : ' (the older name of enable)'}`)
      .requiredOption('--endpoint <id>', 'endpoint id')
      .action(async (options: { endpoint: string }) => {
        await withDatabase((_db, services) => services.webhookEndpoints.enable(options.endpoint));
        result({ enabled: options.endpoint }, () => out(`enabled: ${options.endpoint}`));
      });
  }
  webhooks
    .command('disable')
    .description('stop sending to an endpoint: no new deliveries, its pending ones abandoned (enable turns it back on)')
    .requiredOption('--endpoint <id>', 'endpoint id')
    .action(async (options: { endpoint: string }) => {
      await withDatabase((_db, services) => services.webhookEndpoints.disable(options.endpoint));
      result({ disabled: options.endpoint }, () => out(`disabled: ${options.endpoint}`));
    });
  webhooks
    .command('remove')
    .description('delete an endpoint with its delivery log')
    .requiredOption('--endpoint <id>', 'endpoint id')
    .action(async (options: { endpoint: string }) => {
      await withDatabase((_db, services) => services.webhookEndpoints.remove(options.endpoint));
      result({ removed: options.endpoint }, () => out(`removed: ${options.endpoint}`));
    });
  webhooks
    .command('list')
    .description('list endpoints (never their secrets), of one merchant or all')
    .option('--merchant <id>', 'only this merchant\'s')
    .action(async (options: { merchant?: string }) => {
      const endpoints = await withDatabase(async (_db, services) => {
        if (options.merchant) await requireMerchants(services, [options.merchant]);
        return services.webhookEndpoints.list(options.merchant);
      });
      const json = endpoints.map((e) => ({ id: e.id, merchant: e.merchantId, url: e.url, protocol: e.protocol, status: e.disabledAt ? 'disabled' : 'enabled', disabled_at: e.disabledAt?.toISOString() ?? null, created_at: e.createdAt.toISOString() }));
      result(json, () =>
        json.length ? table(['ID', 'MERCHANT', 'PROTOCOL', 'STATUS', 'CREATED', 'URL'], json.map((e) => [e.id, e.merchant, e.protocol, e.status, e.created_at, e.url])) : out('no endpoints'),
      );
    });
  webhooks
    .command('deliveries')
    .description('the delivery log, newest first: event, endpoint, state, attempts (time, status, latency, error) and the next attempt')
    .option('--merchant <id>', 'only this merchant\'s')
    .option('--endpoint <id>', 'only this endpoint\'s')
    .option('--state <state>', `only ${DELIVERY_STATES.join(', ')}`, choice('--state', DELIVERY_STATES))
    .option('--limit <n>', 'at most n (default 20)', positiveInt('--limit'), 20)
    .action(async (options: { merchant?: string; endpoint?: string; state?: DeliveryState; limit: number }) => {
      const deliveries = await withDatabase(async (_db, services) => {
        if (options.merchant) await requireMerchants(services, [options.merchant]);
        return services.webhookEndpoints.deliveries({ merchantId: options.merchant, endpointId: options.endpoint, state: options.state, limit: options.limit });
      });
      result(deliveries.map(deliveryJson), () => {
        if (deliveries.length === 0) return out('no deliveries');
        table(
          ['ID', 'EVENT', 'TYPE', 'ENDPOINT', 'STATE', 'ATTEMPTS', 'LAST', 'NEXT'],
          deliveries.map((d) => {
            const last = d.attempts.at(-1);
            return [
              d.id,
              d.event.id,
              d.event.type,
              d.endpointId,
              d.state,
              String(d.attempts.length),
              last ? `${last.responseStatus ?? last.error ?? '-'} ${last.durationMs} ms` : '-',
              d.state === 'pending' ? d.nextAttemptAt.toISOString() : '-',
            ];
          }),
        );
      });
    });
  webhooks
    .command('resend')
    .description('send a delivery again now (whatever its state); the worker makes the attempt')
    .requiredOption('--delivery <id>', 'delivery id (as webhooks deliveries lists it)')
    .action(async (options: { delivery: string }) => {
      await withDatabase((_db, services) => services.webhookEndpoints.resend(options.delivery));
      result({ resent: options.delivery }, () => out(`resending: ${options.delivery} (due now)`));
    });
}

const DELIVERY_STATES: readonly DeliveryState[] = ['pending', 'succeeded', 'failed', 'abandoned'];

function deliveryJson(d: DeliveryRecord) {
  return {
    id: d.id,
    event: d.event,
    endpoint: d.endpointId,
    state: d.state,
    next_attempt_at: d.state === 'pending' ? d.nextAttemptAt.toISOString() : null,
    created_at: d.createdAt.toISOString(),
    attempts: d.attempts.map((a) => ({ number: a.number, at: a.createdAt.toISOString(), status: a.responseStatus, error: a.error, duration_ms: a.durationMs })),
  };
}
