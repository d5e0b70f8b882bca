/**
 * The cluster suite: three `gateway serve` processes (GATEWAY_ENV=production, each with the delivery
 * worker it starts itself) on free ports over one database of their own on the local PostgreSQL and
 * the local Redis, behind a round-robin proxy — started the way a team starts them, and checked:
 * agreement between replicas (consistency.checks.ts), then faults and throughput (resilience.checks.ts).
 *
 *   pnpm --filter @commerce-gateway/gateway test:cluster     (not part of `pnpm test`; CI runs it)
 */
import { consistencyChecks } from './consistency.checks.js';
import { resilienceChecks } from './resilience.checks.js';
import { useCluster } from './support/shared-cluster.js';

const shared = useCluster();
consistencyChecks(shared);
resilienceChecks(shared);
