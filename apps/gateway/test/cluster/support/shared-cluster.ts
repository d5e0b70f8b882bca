/** The one cluster every check of the suite runs on: started once (starting three replicas is the slow part). */
import { afterAll, beforeAll } from 'vitest';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { startCluster, type Cluster } from './cluster.js';
import { setUpShop } from './shop.js';

export interface SharedCluster {
  cluster: Cluster;
  receiver: Receiver;
  /** The merchant's key, with room to spare (enterprise tier). */
  key: string;
}

/** Registers the suite's setup and teardown; the returned object is filled in before the first test. */
export function useCluster(): SharedCluster {
  const shared = {} as SharedCluster;
  beforeAll(async () => {
    shared.receiver = await startReceiver();
    shared.cluster = await startCluster();
    ({ key: shared.key } = await setUpShop(shared.cluster, shared.receiver.url));
  });
  afterAll(async () => {
    await shared.cluster?.destroy();
    await shared.receiver?.close();
  });
  return shared;
}
