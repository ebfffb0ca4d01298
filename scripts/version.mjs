#!/usr/bin/env node
// The workspace's one version: the root package.json's "version". The three packages carry it, and each
// dependency of one trawl package on another names it exactly, so a release is one consistent set.
//
//   node scripts/version.mjs           check: every package and internal dependency says the root's version
//   node scripts/version.mjs 0.2.0     set it in the root and everywhere it is repeated, then check
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(process.env.TRAWL_VERSION_ROOT ?? path.join(import.meta.dirname, '..'));
const read = (file) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
const write = (file, json) => fs.writeFileSync(path.join(root, file), `${JSON.stringify(json, null, 2)}\n`);
const SECTIONS = ['dependencies', 'optionalDependencies', 'peerDependencies', 'devDependencies'];

const rootPkg = read('package.json');
const manifests = rootPkg.workspaces.map((dir) => path.join(dir, 'package.json'));
const names = new Set(manifests.map((file) => read(file).name));

const wanted = process.argv[2];
if (wanted !== undefined) {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(wanted)) {
    console.error(`version: '${wanted}' is not a version (MAJOR.MINOR.PATCH[-PRE])`);
    process.exit(2);
  }
  rootPkg.version = wanted;
  write('package.json', rootPkg);
  for (const file of manifests) {
    const pkg = read(file);
    pkg.version = wanted;
    for (const section of SECTIONS) {
      for (const dep of Object.keys(pkg[section] ?? {})) if (names.has(dep)) pkg[section][dep] = wanted;
    }
    write(file, pkg);
  }
}

const problems = [];
const version = rootPkg.version;
if (typeof version !== 'string') problems.push('package.json: no "version" (the one place it is set)');
for (const file of manifests) {
  const pkg = read(file);
  if (pkg.version !== version) problems.push(`${file}: version ${pkg.version}, not ${version}`);
  for (const section of SECTIONS) {
    for (const [dep, range] of Object.entries(pkg[section] ?? {})) {
      if (names.has(dep) && range !== version)
        problems.push(`${file}: ${section}.${dep} is ${range}, not ${version}`);
    }
  }
}
if (problems.length > 0) {
  for (const p of problems) console.error(`version: ${p}`);
  console.error(`version: run \`npm run version -- ${version}\` to make them agree`);
  process.exit(1);
}
console.log(`version: ${version} in ${manifests.length} packages and their dependencies on each other`);
