/**
 * Settings read one at a time, where loading the whole configuration (loadConfig, which refuses
 * any bad setting) would be wrong: the CLI's entry point, before it loads anything heavy
 * (cli/main.ts); its error path, where another bad setting must not hide the error reported; a
 * command's own default; the crash test's hook. Each reads one variable and never throws;
 * loadConfig reads the same variables the same way where it reads them too.
 */
import type { Env } from './readers.js';

/** DATA_DIR: the embedded database's directory (and the running gateway's local socket); default `.data`. */
export function dataDir(env: Env = process.env): string {
  return env.DATA_DIR?.trim() || '.data';
}

/** Whether the gateway runs on the embedded database (DATA_DIR), i.e. DATABASE_URL is not set. */
export function embeddedDatabase(env: Env = process.env): boolean {
  return !env.DATABASE_URL?.trim();
}

/** LOG_LEVEL=debug: a failed CLI command prints its stack trace after its one line. */
export function debugLogging(env: Env = process.env): boolean {
  return env.LOG_LEVEL === 'debug';
}

/** FEED_API_TOKEN: the bearer token `catalog push-feed` sends when it is given no --token. */
export function feedApiToken(env: Env = process.env): string | undefined {
  return env.FEED_API_TOKEN;
}

/** PAYMENT_FAULT_AT=<step>[:<n>]: the crash test's fault point (payments/operations/fault-injection.ts); never with GATEWAY_ENV=production. */
export function paymentFaultAt(env: Env = process.env): string | undefined {
  return env.GATEWAY_ENV === 'production' ? undefined : env.PAYMENT_FAULT_AT;
}
