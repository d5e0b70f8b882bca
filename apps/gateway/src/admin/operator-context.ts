/**
 * What the admin edge learns about a request beyond the shared RequestContext: the operator, and
 * what the audit entry should name (the target and its merchant, once a handler has found them).
 */
import type { Request } from 'express';
import { AuthorizationError } from '../kernel/errors.js';
import { mark, marked } from '../kernel/hidden-property.js';
import { servesMerchant, type Operator } from './operator.js';

interface AdminContext {
  operator?: Operator;
  /** When the console session the request came with ends (undefined for a credential). */
  sessionExpiresAt?: Date;
  target?: string;
  merchantId?: string;
  /** The error type and message of a refused or failed request. */
  detail?: string;
}

/** The request's admin context, a hidden property of the request (../hidden-property.ts). */
const CONTEXT = Symbol('admin context');

export function adminContext(req: Request): AdminContext {
  let context = marked<AdminContext>(req, CONTEXT);
  if (!context) mark(req, CONTEXT, (context = {}));
  return context;
}

/** The authenticated operator (after authenticateOperator()). */
export function operatorOf(req: Request): Operator {
  const operator = adminContext(req).operator;
  if (!operator) throw new Error('operatorOf() used before authenticateOperator()');
  return operator;
}

/** Names what the request acts on, for its audit entry. */
export function auditTarget(req: Request, target: string, merchantId?: string): void {
  const context = adminContext(req);
  context.target = target;
  if (merchantId !== undefined) context.merchantId = merchantId;
}

/** 403 unless the operator serves this merchant (a merchant named in the request). */
export function requireMerchant(req: Request, merchantId: string): void {
  if (!servesMerchant(operatorOf(req), merchantId)) throw new AuthorizationError(`This operator credential has no access to merchant ${JSON.stringify(merchantId)}`, 'merchant_id');
}

/** The merchants the operator serves; undefined for every merchant. */
export function merchantScope(req: Request): string[] | undefined {
  const operator = operatorOf(req);
  return operator.allMerchants ? undefined : operator.merchantIds;
}
