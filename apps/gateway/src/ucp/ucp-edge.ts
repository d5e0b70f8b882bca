/**
 * The UCP edge as this slice serves it, one step of the app's first layer (app.ts): discovery at
 * `/.well-known/ucp` (discovery.ts) and, under `/ucp`, negotiation (negotiation.ts) before any
 * operation. No UCP operation is served yet (checkout, order, catalog and cart are the next slices
 * of issue 24, each becoming a UCP profile of http/edge.ts), so a negotiated request under /ucp is
 * answered 404 `not_found`, in UCP's error shape like every refusal here. Other paths pass on.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ucpDiscovery, type UcpDiscoveryOptions } from './discovery.js';
import { negotiationOf, ucpErrors, ucpNegotiation } from './negotiation.js';
import type { AgentProfileFetcher } from './profile-fetcher.js';
import { UcpError } from './ucp-error.js';
import { UCP_PREFIX } from './ucp-version.js';

export interface UcpEdgeOptions extends UcpDiscoveryOptions {
  fetcher: AgentProfileFetcher;
}

export const isUcpPath = (path: string): boolean => path === UCP_PREFIX || path.startsWith(`${UCP_PREFIX}/`);

export function ucpEdge(options: UcpEdgeOptions): RequestHandler {
  const discovery = ucpDiscovery(options);
  const negotiate = ucpNegotiation({ current: options.current, fetcher: options.fetcher });
  const errors = ucpErrors(options.current);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isUcpPath(req.path)) return discovery(req, res, next);
    const fail = (error: unknown) => errors(error, req, res, next);
    try {
      negotiate(req, res, (error?: unknown) => {
        if (error) return fail(error);
        const { version } = negotiationOf(req);
        fail(new UcpError('not_found', `No UCP operation at ${req.method} ${req.path} yet: this gateway serves UCP ${version} discovery and negotiation only`, 404));
      });
    } catch (error) {
      fail(error);
    }
  };
}
