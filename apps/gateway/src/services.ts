import { KeyService } from './auth/key-service.js';
import { KeyStore } from './auth/key-store.js';
import { CatalogService } from './catalog/catalog-service.js';
import { CatalogStore } from './catalog/catalog-store.js';
import type { Database } from './db/database.js';

export interface Services {
  keys: KeyService;
  catalog: CatalogService;
}

/** Builds every service over one database. */
export function buildServices(db: Database): Services {
  return {
    keys: new KeyService(new KeyStore(db.prisma)),
    catalog: new CatalogService(new CatalogStore(db.prisma)),
  };
}
