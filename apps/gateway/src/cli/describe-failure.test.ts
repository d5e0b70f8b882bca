import { describe, expect, it } from 'vitest';
import { ImportError } from '../catalog/import/catalog-importer.js';
import { NotFoundError } from '../kernel/errors.js';
import { ListenError } from '../server.js';
import { describeFailure } from './describe-failure.js';
import { UsageError } from './output.js';

describe('describeFailure', () => {
  it('an expected failure is its message, whether its module is always loaded or loaded for it', async () => {
    expect(await describeFailure(new UsageError('no merchant "x"'))).toBe('no merchant "x"');
    expect(await describeFailure(new NotFoundError('no key k'))).toBe('no key k'); // GatewayError's kinds
    expect(await describeFailure(new ImportError(3, 'price must be an integer'))).toBe('line 3: price must be an integer');
    expect(await describeFailure(new ListenError('127.0.0.1:8080 is in use'))).toBe('127.0.0.1:8080 is in use');
  });

  it("an error that only bears an expected class's name is not taken for it", async () => {
    const impostor = Object.assign(new Error('boom\nat somewhere'), { name: 'ImportError' });
    expect(await describeFailure(impostor)).toBe('boom (set LOG_LEVEL=debug for details)');
    expect(await describeFailure('plain')).toBe('plain (set LOG_LEVEL=debug for details)');
  });
});
