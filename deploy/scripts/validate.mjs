#!/usr/bin/env node
// Offline checks of the deployment files (`pnpm --filter @commerce-gateway/deploy lint`, part of `pnpm lint`):
//  - compose.yaml against the Compose Specification's JSON schema, vendored in dclint (plus dclint's
//    rules that catch real mistakes; its ordering rules are off: .dclintrc);
//  - every Kubernetes manifest against the Kubernetes API's OpenAPI schemas shipped in kubernetes-models
//    (types, enums, required fields), and against its TypeScript types with excess-property checks, which
//    catch what the schemas let through: a misspelt or unknown field; the Kustomization's resources must exist;
//  - the Dockerfile: multi-stage, non-root, a /healthz HEALTHCHECK, the image tree script.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];

// Compose.
const dclint = createRequire(import.meta.url).resolve('dclint/package.json').replace(/package\.json$/, 'bin/dclint.cjs');
const compose = spawnSync(process.execPath, [dclint, join(root, 'compose.yaml')], { cwd: root, encoding: 'utf8' });
process.stdout.write(compose.stdout);
process.stderr.write(compose.stderr);
if (compose.status !== 0) problems.push('compose.yaml: dclint found errors (above)');

// Kubernetes.
const dir = join(root, 'kubernetes');
let checked = 0;
/** One line per object for the type check: `export const m3: IDeployment = {…}; // kubernetes/deployment.yaml#1` */
const typed = [];
const imports = new Map();
for (const file of readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort()) {
  for (const [index, document] of parseAllDocuments(readFileSync(join(dir, file), 'utf8')).entries()) {
    const where = `kubernetes/${file}#${index + 1}`;
    if (document.errors.length) {
      problems.push(`${where}: ${document.errors[0].message}`);
      continue;
    }
    const object = document.toJS();
    if (!object) continue;
    if (object.kind === 'Kustomization') {
      for (const resource of object.resources ?? []) if (!existsSync(join(dir, resource))) problems.push(`${where}: resource ${resource} does not exist`);
      continue;
    }
    const [group, version] = String(object.apiVersion).includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
    let models;
    try {
      models = await import(group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`);
    } catch {
      problems.push(`${where}: unknown apiVersion ${object.apiVersion}`);
      continue;
    }
    const Model = models[object.kind];
    if (!Model) {
      problems.push(`${where}: unknown kind ${object.kind} in ${object.apiVersion}`);
      continue;
    }
    const module = group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
    imports.set(module, [...(imports.get(module) ?? []), `I${object.kind}`]);
    typed.push({ where, line: `export const m${typed.length}: I${object.kind} = ${JSON.stringify(object)};` });
    try {
      new Model(object).validate();
      checked++;
    } catch (error) {
      problems.push(`${where} (${object.kind} ${object.metadata?.name}): ${error.message}`);
    }
  }
}

// The same objects against their TypeScript types (excess properties are errors there).
if (typed.length) {
  const dir = join(root, 'node_modules', '.cache', 'manifest-types');
  mkdirSync(dir, { recursive: true });
  const header = [...imports].map(([module, names]) => `import type { ${[...new Set(names)].join(', ')} } from '${module}';`);
  writeFileSync(join(dir, 'manifests.ts'), [...header, ...typed.map((t) => t.line)].join('\n') + '\n');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', join(dir, 'manifests.ts')], { encoding: 'utf8' });
  for (const match of result.stdout.matchAll(/manifests\.ts\((\d+),\d+\): error TS\d+: (.*)/g)) {
    const entry = typed[Number(match[1]) - 1 - header.length];
    problems.push(`${entry?.where ?? 'kubernetes'}: ${match[2]}`);
  }
  if (result.status !== 0 && !/error TS/.test(result.stdout)) problems.push(`kubernetes: type check failed: ${result.stdout}${result.stderr}`);
  rmSync(dir, { recursive: true, force: true });
}

// Dockerfile.
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const wants = [
  [/^FROM .+ AS build$/m, 'a build stage'],
  [/^COPY --from=build /m, 'a runtime stage that copies the build'],
  [/^USER (?!root)\S+$/m, 'a non-root USER'],
  [/^HEALTHCHECK [\s\S]*\/healthz/m, 'a HEALTHCHECK on /healthz'],
  [/deploy\/scripts\/image-tree\.mjs/, 'the image tree script (what CI starts the gateway from)'],
];
for (const [pattern, what] of wants) if (!pattern.test(dockerfile)) problems.push(`Dockerfile: needs ${what}`);

if (problems.length) {
  console.error(problems.map((p) => `✖ ${p}`).join('\n'));
  process.exit(1);
}
console.log(`deploy: compose.yaml valid; ${checked} Kubernetes objects valid (schemas and types); Dockerfile checked`);
