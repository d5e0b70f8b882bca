/**
 * `gateway ucp keys list|rotate|retire`: the business's UCP signing keys, stored in the database and
 * published in /.well-known/ucp `signing_keys` (ucp/signing-keys.ts). Running gateways pick a change
 * up within 30 s. Private keys are never printed.
 */
import type { Command } from 'commander';
import { SigningKeyStore } from '../../ucp/webhooks/signing-key-store.js';
import { DEFAULT_ACTIVATE_IN_MS, DEFAULT_KEY_OVERLAP_MS, listSigningKeys, rotateSigningKey } from '../../ucp/webhooks/signing-key-rotation.js';
import { err, out, UsageError } from '../output.js';
import { withDatabase } from '../with-database.js';
import { duration } from './webhooks.js';

const durationOf = (option: string) => (raw: string): number => {
  try {
    return duration(raw);
  } catch {
    throw new UsageError(`${option} must be a duration like 1h, 30m, 7d or 0, not ${JSON.stringify(raw)}`);
  }
};

const when = (date: Date | null) => date?.toISOString() ?? '-';

export function ucpCommand(program: Command): void {
  const keys = program.command('ucp').description('Universal Commerce Protocol operations').command('keys').description('the business\'s UCP signing keys (published in /.well-known/ucp)');
  keys
    .command('list')
    .description('every key: kid, state (signing | published | scheduled | retired), activates, retires — never the private key')
    .action(async () => {
      const rows = await withDatabase(async (db, _services, config) => {
        if (config.ucpSigningKey) err('note: UCP_SIGNING_KEY is set; this gateway publishes and signs with it instead of these keys');
        return listSigningKeys(new SigningKeyStore(db));
      });
      if (!rows.length) err('no UCP signing keys stored yet (`gateway ucp keys rotate` creates one)');
      for (const row of rows) out(`${row.kid}  ${row.state}  activates ${when(row.activatesAt)}  retires ${when(row.retiresAt)}`);
    });
  keys
    .command('rotate')
    .description('add a new key: published at once, signing after --activate-in; the keys before it stay published for --overlap after that; prints the new kid on the last line')
    .option('--activate-in <duration>', 'how long platforms get to see the new key before it signs (the profile is cached up to 1h), e.g. 1h, 0', durationOf('--activate-in'), DEFAULT_ACTIVATE_IN_MS)
    .option('--overlap <duration>', 'how long the previous keys stay published once the new one signs (spec: at least 7 days), e.g. 7d', durationOf('--overlap'), DEFAULT_KEY_OVERLAP_MS)
    .action(async (options: { activateIn: number; overlap: number }) => {
      const rotated = await withDatabase((db) => rotateSigningKey(new SigningKeyStore(db), { activateInMs: options.activateIn, overlapMs: options.overlap }));
      out(`signs from ${rotated.activatesAt.toISOString()}; previous keys retire at ${rotated.previousRetireAt.toISOString()}`);
      out(rotated.kid);
    });
  keys
    .command('retire')
    .description('take a key out of the profile now (a compromised key): nothing signs with it any more')
    .argument('<kid>', 'the key id, as `ucp keys list` prints it')
    .action(async (kid: string) => {
      const retired = await withDatabase((db) => new SigningKeyStore(db).retire(kid, new Date()));
      if (!retired) throw new UsageError(`no UCP signing key ${kid} (see \`gateway ucp keys list\`)`);
      out(`retired ${kid}`);
    });
}
