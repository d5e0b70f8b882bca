#!/usr/bin/env node
// Offline checks of the deployment files (`pnpm --filter @commerce-gateway/deploy lint`, part of `pnpm lint`):
//  - compose.yaml against the Compose Specification's JSON schema, vendored in dclint (plus dclint's
//    rules that catch real mistakes; its ordering rules are off: .dclintrc);
//  - every Kubernetes manifest against the Kubernetes API's OpenAPI schemas shipped in kubernetes-models;
//    the Kustomization's resources must exist;
//  - the Dockerfile: multi-stage, non-root, a /healthz HEALTHCHECK, the image tree script.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
    try {
      new Model(object).validate();
      checked++;
    } catch (error) {
      problems.push(`${where} (${object.kind} ${object.metadata?.name}): ${error.message}`);
    }
  }
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
console.log(`deploy: compose.yaml valid; ${checked} Kubernetes objects valid; Dockerfile checked`);
