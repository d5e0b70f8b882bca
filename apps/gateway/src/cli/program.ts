import { Command, CommanderError } from 'commander';
import { debugLogging } from '../config/standalone-settings.js';
import { catalogCommand } from './commands/catalog.js';
import { customersCommand } from './commands/customers.js';
import { discountsCommand } from './commands/discounts.js';
import { keysCommand } from './commands/keys.js';
import { merchantsCommand } from './commands/merchants.js';
import { migrateCommand } from './commands/migrate.js';
import { operatorsCommand } from './commands/operators.js';
import { ordersCommand } from './commands/orders.js';
import { paymentsCommand } from './commands/payments.js';
import { serveCommand } from './commands/serve.js';
import { shippingCommand } from './commands/shipping.js';
import { ucpCommand } from './commands/ucp.js';
import { webhooksCommand } from './commands/webhooks.js';
import { err, io, withIo } from './output.js';

/** A fresh program (commander keeps the parsed options on it): one per run. */
function buildProgram(): Command {
  const program = new Command('gateway')
    .description('Commerce Gateway: the server and its operator commands')
    .showHelpAfterError('(add --help for usage)')
    .option('--json', 'results as one JSON document on stdout (for scripts)')
    .configureOutput({ writeOut: (text) => io().stdout(text), writeErr: (text) => io().stderr(text) })
    .exitOverride();
  serveCommand(program, runCommand);
  migrateCommand(program);
  merchantsCommand(program);
  keysCommand(program);
  catalogCommand(program);
  discountsCommand(program);
  customersCommand(program);
  webhooksCommand(program);
  ordersCommand(program);
  paymentsCommand(program);
  shippingCommand(program);
  ucpCommand(program);
  operatorsCommand(program);
  return program;
}

/**
 * Runs one command line (the arguments after `gateway`) and returns its exit code; output goes
 * to the current CommandIo. The one implementation of every command, whether the CLI process runs
 * it over its own database or a running gateway runs it for a CLI on its local socket.
 */
export async function runCommand(args: readonly string[]): Promise<number> {
  try {
    const json = args.includes('--json');
    await withIo({ ...io(), json }, () => buildProgram().parseAsync([...args], { from: 'user' }));
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const { describeFailure } = await import('./describe-failure.js');
    err(`error: ${await describeFailure(error)}`);
    if (debugLogging() && error instanceof Error) err(error.stack ?? '');
    return 1;
  }
}

export type RunCommand = typeof runCommand;
