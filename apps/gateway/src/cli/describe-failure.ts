import { ConfigError } from '../config/config.js';
import { DataDirBusyError } from '../db/data-dir-lock.js';
import { driverErrorKind } from '../db/database.js';
import { GatewayError } from '../kernel/errors.js';
import { UsageError } from './output.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** Expected failures whose modules every command has loaded already (GatewayError's subclasses are its kinds). */
const EXPECTED: ErrorClass[] = [ConfigError, DataDirBusyError, GatewayError, UsageError];

/**
 * Expected failures of heavier modules, by their class's name: a module is loaded (to check the class
 * itself) only for an error of that name. Describing a failure must not load what the command did not
 * (the server's whole graph — Express, the MCP SDK — took a second on a 2-core machine).
 */
const EXPECTED_ELSEWHERE: Record<string, () => Promise<ErrorClass>> = {
  CustomerImportError: async () => (await import('../customers/customer-service.js')).CustomerImportError,
  DatabaseUnreachableError: async () => (await import('../db/database.js')).DatabaseUnreachableError,
  DiscountImportError: async () => (await import('../discounts/discount-service.js')).DiscountImportError,
  ImportError: async () => (await import('../catalog/import/catalog-importer.js')).ImportError,
  ListenError: async () => (await import('../server.js')).ListenError,
  RedisUnreachableError: async () => (await import('../rate-limit/open-stores.js')).RedisUnreachableError,
};

async function expected(error: unknown): Promise<boolean> {
  if (EXPECTED.some((type) => error instanceof type)) return true;
  const load = error instanceof Error && Object.hasOwn(EXPECTED_ELSEWHERE, error.name) ? EXPECTED_ELSEWHERE[error.name] : undefined;
  return load !== undefined && error instanceof (await load());
}

/** One line for the operator: the message of an expected failure, a short description of anything else. */
export async function describeFailure(error: unknown): Promise<string> {
  if (await expected(error)) return (error as Error).message;
  const kind = driverErrorKind(error);
  if (kind) return `database error: ${kind}`;
  const message = error instanceof Error ? error.message : String(error);
  return `${message.split('\n').find((line) => line.trim()) ?? 'unexpected failure'} (set LOG_LEVEL=debug for details)`;
}
