/**
 * The composition root of the HTTP app: every middleware in order, then the
 * domain routes, then the error handler. It never listens; main.ts does.
 */
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { KeyService } from './auth/key-service.js';
import type { CatalogService } from './catalog/catalog-service.js';
import { catalogRoutes } from './catalog/routes.js';
import type { Config } from './config/config.js';
import { supportedApiVersions } from './contract/api-versions.js';
import { loadContract } from './contract/document.js';
import { OperationTable } from './contract/operations.js';
import { errorHandler } from './http/error-handler.js';
import { apiVersion } from './http/middleware/api-version.js';
import { corsPolicy } from './http/middleware/cors-policy.js';
import { jsonBody } from './http/middleware/json-body.js';
import { matchOperation } from './http/middleware/match-operation.js';
import { requestId } from './http/middleware/request-id.js';
import { requireAuth } from './http/middleware/require-auth.js';
import { validate } from './http/middleware/validate.js';

export interface AppDeps {
  config: Pick<Config, 'env' | 'allowedOrigins' | 'basicAuth'>;
  logger: Logger;
  keys: KeyService;
  catalog: CatalogService;
}

export function createApp(deps: AppDeps): Express {
  const contract = loadContract();
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use(requestId());
  app.use(corsPolicy(deps.config.allowedOrigins));
  app.use(matchOperation(new OperationTable(contract)));
  app.use(apiVersion(supportedApiVersions()));
  app.use(requireAuth({ keys: deps.keys, env: deps.config.env, basicAuth: deps.config.basicAuth }));
  app.use(jsonBody());
  app.use(validate(contract));

  app.use(catalogRoutes(deps.catalog));

  app.use(errorHandler(deps.logger));
  return app;
}
