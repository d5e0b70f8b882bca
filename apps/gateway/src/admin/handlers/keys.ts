import type { Request } from 'express';
import type { KeyService } from '../../auth/key-service.js';
import type { Tier } from '../../auth/principal.js';
import type { SignatureScheme } from '../../auth/request-signature-v2.js';
import type { Scope } from '../../auth/scopes.js';
import type { GatewayEnv } from '../../config/config.js';
import { NotFoundError } from '../../kernel/errors.js';
import type { OperationHandlers } from '../../http/operation-handlers.js';
import type { MerchantService } from '../../merchants/merchant-service.js';
import { servesMerchant } from '../operator.js';
import { auditTarget, operatorOf } from '../operator-context.js';
import { pageFromList } from '../page-cursor.js';
import { keyWire } from '../wire.js';
import { existingMerchant } from './existing-merchant.js';
import { pageParams, pathParam } from './page-params.js';

interface CreateApiKeyBody {
  name?: string;
  environment?: GatewayEnv;
  scopes?: Scope[];
  tier?: Tier;
  rpm?: number;
  rpd?: number;
  signing_secret?: boolean;
  signature_scheme?: SignatureScheme;
}

/** The key, audited as the target, when it serves only merchants of the operator; else 404 as if it did not exist. */
async function servedKey(req: Request, keys: KeyService, keyId: string) {
  const record = (await keys.list()).find((k) => k.id === keyId);
  auditTarget(req, keyId, record?.merchantIds.length === 1 ? record.merchantIds[0] : undefined);
  if (!record || !record.merchantIds.every((m) => servesMerchant(operatorOf(req), m))) throw new NotFoundError(`No API key ${JSON.stringify(keyId)} among this credential's merchants`, 'key_id');
  return record;
}

export function keyOperations(keys: KeyService, merchants: Pick<MerchantService, 'exists'>, env: GatewayEnv): OperationHandlers {
  return {
    listApiKeys: async (req, res) => {
      const merchantId = await existingMerchant(req, merchants);
      const mine = (await keys.list()).filter((k) => k.merchantIds.includes(merchantId));
      res.json(pageFromList(mine, pageParams(req), keyWire));
    },
    createApiKey: async (req, res) => {
      const merchantId = await existingMerchant(req, merchants);
      const body = req.body as CreateApiKeyBody;
      const created = await keys.create({
        merchantIds: [merchantId],
        ...(body.name === undefined ? {} : { name: body.name }),
        env: body.environment ?? env,
        scopes: body.scopes ?? ['*'],
        ...(body.tier ? { tier: body.tier } : {}),
        ...(body.rpm ? { rpm: body.rpm } : {}),
        ...(body.rpd ? { rpd: body.rpd } : {}),
        ...(body.signing_secret === undefined ? {} : { signingSecret: body.signing_secret }),
        ...(body.signature_scheme ? { signatureScheme: body.signature_scheme } : {}),
      });
      auditTarget(req, created.id, merchantId);
      const record = (await keys.list()).find((k) => k.id === created.id)!;
      res.status(201).json({ api_key: keyWire(record), secret: created.key, ...(created.signingSecret ? { signing_secret: created.signingSecret } : {}) });
    },
    setApiKeySignatureScheme: async (req, res) => {
      const keyId = pathParam(req, 'key_id');
      const record = await servedKey(req, keys, keyId);
      await keys.setSignatureScheme(record.id, (req.body as { signature_scheme: SignatureScheme }).signature_scheme);
      res.json(keyWire((await keys.list()).find((k) => k.id === keyId)!));
    },
    revokeApiKey: async (req, res) => {
      const keyId = pathParam(req, 'key_id');
      await servedKey(req, keys, keyId);
      await keys.revoke(keyId);
      res.json(keyWire((await keys.list()).find((k) => k.id === keyId)!));
    },
  };
}
