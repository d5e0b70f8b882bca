/** ACP product feeds of a merchant's catalog: export to files, push to a Feed API (what `gateway catalog export|push-feed` runs). */
import type { FeedApiClient } from './feed-api-client.js';
import { exportFeed, type FeedExportOptions, type FeedExportResult } from './feed-export.js';
import { pushFeed, type FeedPushOptions, type FeedPushResult } from './feed-push.js';
import type { FeedStore } from './feed-store.js';

export class FeedService {
  constructor(private readonly store: FeedStore) {}

  export(options: FeedExportOptions): Promise<FeedExportResult> {
    return exportFeed(this.store, options);
  }

  push(client: FeedApiClient, options: FeedPushOptions): Promise<FeedPushResult> {
    return pushFeed(this.store, client, options);
  }
}
