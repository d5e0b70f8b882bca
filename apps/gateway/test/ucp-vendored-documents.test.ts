/**
 * openapi/ucp/ is an unmodified copy of the official UCP releases' schemas: every vendored file is
 * byte for byte the official one (where the official copy exists; in CI it must), and the folders
 * the gateway reads (schemas/, discovery/) are complete.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonFilesUnder, officialUcpDir, vendoredFiles, vendoredUcpDir, type UcpRelease } from './support/official-ucp.js';

const releases: UcpRelease[] = ['2026-01-11', '2026-04-08'];
const maySkip = !officialUcpDir && process.env.CI !== 'true';

describe.skipIf(maySkip)('the vendored UCP documents', () => {
  it.each(releases)('%s: every file is the official one, and schemas/ and discovery/ are complete', (release) => {
    const official = join(officialUcpDir!, release, 'source');
    const files = vendoredFiles(release);
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect(readFileSync(join(vendoredUcpDir, release, file), 'utf8'), file).toBe(readFileSync(join(official, file), 'utf8'));
    for (const folder of ['schemas', 'discovery']) {
      const wanted = jsonFilesUnder(join(official, folder)).map((file) => file.slice(official.length + 1));
      expect(files).toEqual(expect.arrayContaining(wanted));
    }
  });

  it('keeps the licence beside them', () => {
    expect(readFileSync(join(vendoredUcpDir, 'LICENSE'), 'utf8')).toBe(readFileSync(join(officialUcpDir!, 'LICENSE'), 'utf8'));
  });
});
