import { ImportError } from '../catalog/import/catalog-importer.js';
import { ConfigError } from '../config/config.js';
import { DataDirBusyError } from '../db/data-dir-lock.js';
import { CustomerImportError } from '../customers/customer-service.js';
import { DiscountImportError } from '../discounts/discount-service.js';
import { DatabaseUnreachableError, driverErrorKind } from '../db/database.js';
import { GatewayError } from '../errors.js';
import { RedisUnreachableError } from '../rate-limit/open-stores.js';
import { ListenError } from '../server.js';
import { UsageError } from './output.js';

const EXPECTED = [ConfigError, CustomerImportError, DataDirBusyError, DatabaseUnreachableError, DiscountImportError, GatewayError, ImportError, ListenError, RedisUnreachableError, UsageError];

/** One line for the operator: the message of an expected failure, a short description of anything else. */
export function describeFailure(error: unknown): string {
  if (EXPECTED.some((type) => error instanceof type)) return (error as Error).message;
  const kind = driverErrorKind(error);
  if (kind) return `database error: ${kind}`;
  const message = error instanceof Error ? error.message : String(error);
  return `${message.split('\n').find((line) => line.trim()) ?? 'unexpected failure'} (set LOG_LEVEL=debug for details)`;
}
