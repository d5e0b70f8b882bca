/**
 * What issue 37 adds for trying UCP locally stays out of production: the sample platform profile
 * (`/ucp/dev/platform-profile.json`) is served in development only, and the order update a client
 * sends (`PUT /ucp/orders/{id}`, shipments it appends) is refused in production — there a shipment
 * is the business's to record.
 */
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it, vi } from 'vitest';
import { DEV_PLATFORM_PROFILE_PATH, devPlatformProfileRoute } from '../src/ucp/dev-platform-profile.js';
import { ucpOrderOperations } from '../src/ucp/order/ucp-order-operations.js';
import type { UcpOrderService } from '../src/ucp/order/ucp-order-service.js';
import { UcpError } from '../src/ucp/ucp-error.js';

const request = (method: string, path: string) => ({ method, path, query: {} }) as unknown as Request;

describe('the sample platform profile', () => {
  it.each(['sandbox', 'production'] as const)('is not served in %s', (env) => {
    const next = vi.fn();
    const json = vi.fn();
    devPlatformProfileRoute({ env, current: '2026-04-08' })(request('GET', DEV_PLATFORM_PROFILE_PATH), { json, setHeader: vi.fn() } as unknown as Response, next as NextFunction);
    expect(next).toHaveBeenCalledOnce();
    expect(json).not.toHaveBeenCalled();
  });

  it('is served in development', () => {
    const json = vi.fn();
    devPlatformProfileRoute({ env: 'development', current: '2026-04-08' })(request('GET', DEV_PLATFORM_PROFILE_PATH), { json, setHeader: vi.fn() } as unknown as Response, vi.fn());
    expect(json).toHaveBeenCalledWith(expect.objectContaining({ ucp: expect.objectContaining({ version: '2026-04-08' }) }));
  });
});

describe('PUT /ucp/orders/{id}', () => {
  it('is refused in production before anything is read', async () => {
    const orders = { update: vi.fn(), release: vi.fn() } as unknown as UcpOrderService;
    const handler = ucpOrderOperations({ ucpOrders: orders, config: { env: 'production' } })['ucp.update_order']!;
    const refused = await Promise.resolve(handler(request('PUT', '/ucp/orders/ord_1'), {} as Response)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UcpError);
    expect(refused).toMatchObject({ code: 'not_found', status2026_04_08: 404 });
    expect(orders.update).not.toHaveBeenCalled();
  });
});
