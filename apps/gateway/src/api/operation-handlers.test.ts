import { describe, expect, it } from 'vitest';
import { OperationTable } from '../contract/operations.js';
import { catalogOperations } from './catalog-operations.js';
import { operationHandlers } from '../http/operation-handlers.js';
import type { CatalogService } from '../catalog/catalog-service.js';

describe('operationHandlers', () => {
  const operations = new OperationTable().all();
  const every = Object.fromEntries(operations.map((operation) => [operation.operationId, () => undefined]));

  it('takes one handler for each operation of the contract', () => {
    expect(() => operationHandlers(operations, every)).not.toThrow();
  });

  it('refuses, at start-up, an operation without a handler and a handler without an operation', () => {
    const { getProduct: _, ...withoutOne } = every;
    expect(() => operationHandlers(operations, withoutOne)).toThrow(/no handler for the contract's getProduct/);
    expect(() => operationHandlers(operations, { ...every, getProdcut: () => undefined })).toThrow(/has no operation getProdcut/);
  });

  it('names the catalog handlers by the contract', () => {
    const names = Object.keys(catalogOperations({} as CatalogService));
    expect(names.every((name) => operations.some((operation) => operation.operationId === name))).toBe(true);
  });
});
