/** An operator credential as the admin API and the CLI see it (never its token or digest). */
export type OperatorAccess = 'read' | 'full';

export interface Operator {
  id: string;
  name: string;
  /** The token's last four characters, to tell credentials apart. */
  last4: string;
  access: OperatorAccess;
  /** Every merchant (`allMerchants`), or those of `merchantIds`. */
  allMerchants: boolean;
  merchantIds: string[];
  createdAt: Date;
  revokedAt: Date | null;
}

/** Whether the operator may act on this merchant's resources. */
export function servesMerchant(operator: Pick<Operator, 'allMerchants' | 'merchantIds'>, merchantId: string): boolean {
  return operator.allMerchants || operator.merchantIds.includes(merchantId);
}
