#!/usr/bin/env node
/**
 * The operator CLI: `pnpm gateway <command>`. Results go to stdout; a problem
 * is one line on stderr and a non-zero exit, never a stack trace.
 */
import { Command, CommanderError } from 'commander';
import { catalogCommand } from './cli/commands/catalog.js';
import { customersCommand } from './cli/commands/customers.js';
import { discountsCommand } from './cli/commands/discounts.js';
import { keysCommand } from './cli/commands/keys.js';
import { migrateCommand } from './cli/commands/migrate.js';
import { operatorsCommand } from './cli/commands/operators.js';
import { ordersCommand } from './cli/commands/orders.js';
import { serveCommand } from './cli/commands/serve.js';
import { shippingCommand } from './cli/commands/shipping.js';
import { webhooksCommand } from './cli/commands/webhooks.js';
import { describeFailure } from './cli/describe-failure.js';
import { err } from './cli/output.js';

const program = new Command('gateway')
  .description('Commerce Gateway: the server and its operator commands')
  .showHelpAfterError('(add --help for usage)')
  .exitOverride();

serveCommand(program);
migrateCommand(program);
keysCommand(program);
catalogCommand(program);
discountsCommand(program);
customersCommand(program);
webhooksCommand(program);
ordersCommand(program);
shippingCommand(program);
operatorsCommand(program);

try {
  await program.parseAsync(process.argv);
  process.exit(0);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  err(`error: ${describeFailure(error)}`);
  if (process.env.LOG_LEVEL === 'debug' && error instanceof Error) err(error.stack ?? '');
  process.exit(1);
}
