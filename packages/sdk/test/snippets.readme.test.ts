/**
 * The READMEs' SDK snippets are copy-paste true: each ```ts block that imports the SDK (the root
 * README's and this package's) compiles as written under the repository's strict settings
 * (strict, noUncheckedIndexedAccess, NodeNext, top-level await in an ES module) against the built
 * package's types — and what they search is in the demo catalog `npm start` seeds.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
// Inside the package, so `@commerce-gateway/sdk` resolves to the package itself (its exports, dist/*.d.ts).
const workDir = join(here, '.snippets');
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function sdkSnippets(readme: string): string[] {
  const text = readFileSync(join(root, readme), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((code) => code.includes("from '@commerce-gateway/sdk'") && code.includes('new CommerceGateway('));
}

function compile(name: string, code: string): string[] {
  mkdirSync(workDir, { recursive: true });
  const file = join(workDir, `${name}.mts`);
  writeFileSync(file, code);
  const program = ts.createProgram([file], {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    skipLibCheck: true,
    noEmit: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? `${d.file.fileName.split('/').at(-1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

const demo = readFileSync(join(root, 'apps/gateway/data/demo/products.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { title: string; description: string; category: string; price: number; attributes: Record<string, string[]> });

const cases = [...sdkSnippets('README.md').map((code, i) => [`README.md #${i + 1}`, code] as const), ...sdkSnippets('packages/sdk/README.md').map((code, i) => [`packages/sdk/README.md #${i + 1}`, code] as const)];

describe('the SDK snippets of the READMEs', () => {
  it('finds the snippets (the root README and the SDK README each have one)', () => {
    expect(cases.map(([name]) => name.split(' ')[0])).toEqual(expect.arrayContaining(['README.md', 'packages/sdk/README.md']));
  });

  it.each(cases)('%s compiles under strict TypeScript as written', (name, code) => {
    expect(compile(name.replace(/\W+/g, '-'), code)).toEqual([]);
  });

  it.each(cases)('%s searches what the demo catalog has', (_name, code) => {
    for (const [, q] of code.matchAll(/\bq: '([^']+)'/g)) {
      const words = q!.toLowerCase().split(/\s+/);
      const found = demo.filter((p) => words.every((w) => JSON.stringify([p.title, p.description, p.category, p.attributes]).toLowerCase().includes(w.replace(/s$/, ''))));
      expect(found.length, `"${q}" in the demo catalog`).toBeGreaterThan(0);
    }
    for (const [, category] of code.matchAll(/\bcategory: '([^']+)'/g)) {
      expect(demo.some((p) => p.category.toLowerCase().includes(category!.toLowerCase())), `category "${category}"`).toBe(true);
    }
  });
});
