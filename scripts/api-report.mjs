#!/usr/bin/env node
// The public API of @trawl/core, as text: every entry point of its package.json `exports`, each exported name with
// its kind and type (functions' signatures, classes' and interfaces' public members). The report is committed
// (packages/core/api-report.txt) and CI compares it, so the surface changes only on purpose.
//
//   node scripts/api-report.mjs           write the report
//   node scripts/api-report.mjs --check   exit 1, with a diff, when the code's surface differs from the report
//   node scripts/api-report.mjs --docs    only the doc-comment check (the server's `trawl/wire` has no report)
//
// Every way it exits 1 when an exported declaration has no doc comment.
//
// Read from the sources through the TypeScript compiler API already in devDependencies (no build needed).
// api-extractor was the alternative; it analyses one entry point per run and bundles its own TypeScript compiler
// rather than the project's 6.0, so ten subpaths would mean ten configurations checked by another compiler.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Another package may be named (the script's own test does, with a fixture package).
const pkgDir = path.resolve(repo, process.env['TRAWL_API_PACKAGE'] ?? 'packages/core');
const reportPath = path.join(pkgDir, 'api-report.txt');
const check = process.argv.includes('--check');
const docsOnly = process.argv.includes('--docs');

const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object')
  .map(([subpath, target]) => ({
    specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
    file: path.join(pkgDir, target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts')),
  }));

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(pkgDir, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
const program = ts.createProgram(
  entries.map((e) => e.file),
  { ...config.options, noEmit: true, composite: false },
);
const checker = program.getTypeChecker();
const F = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

const typeOf = (sym, at) => checker.typeToString(checker.getTypeOfSymbolAtLocation(sym, at), at, F);
const hidden = (decl) =>
  decl !== undefined &&
  (ts.getCombinedModifierFlags(decl) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0;
const isPrivateName = (sym) => sym.escapedName.toString().startsWith('__#');
/** Members inherited from outside the package (Error's, Node's) are not part of our surface. */
const foreign = (decl) => decl !== undefined && !decl.getSourceFile().fileName.startsWith(pkgDir);
const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

function members(type, at, indent) {
  const out = [];
  for (const prop of checker.getPropertiesOfType(type)) {
    const decl = prop.valueDeclaration ?? prop.declarations?.[0];
    if (hidden(decl) || foreign(decl) || isPrivateName(prop)) continue;
    const optional = prop.flags & ts.SymbolFlags.Optional ? '?' : '';
    const readonly = decl && ts.getCombinedModifierFlags(decl) & ts.ModifierFlags.Readonly ? 'readonly ' : '';
    if (prop.flags & ts.SymbolFlags.Method) {
      for (const sig of checker.getTypeOfSymbolAtLocation(prop, at).getCallSignatures())
        out.push(`${indent}${prop.name}${optional}${checker.signatureToString(sig, at, F)}`);
    } else if (prop.flags & ts.SymbolFlags.GetAccessor && !(prop.flags & ts.SymbolFlags.SetAccessor)) {
      out.push(`${indent}get ${prop.name}(): ${typeOf(prop, at)}`);
    } else {
      out.push(`${indent}${readonly}${prop.name}${optional}: ${typeOf(prop, at)}`);
    }
  }
  for (const info of checker.getIndexInfosOfType(type))
    out.push(
      `${indent}[key: ${checker.typeToString(info.keyType)}]: ${checker.typeToString(info.type, at, F)}`,
    );
  return out;
}

function describe(name, exported, at) {
  const sym = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const lines = [];
  const f = sym.flags;
  if (f & ts.SymbolFlags.Class) {
    const decl = sym.declarations.find(ts.isClassDeclaration);
    const instance = checker.getDeclaredTypeOfSymbol(sym);
    const base = instance.getBaseTypes?.()[0];
    lines.push(`class ${name}${base ? ` extends ${checker.typeToString(base)}` : ''}`);
    const statics = checker.getTypeOfSymbolAtLocation(sym, decl);
    for (const sig of statics.getConstructSignatures())
      if (!hidden(sig.declaration)) lines.push(`  constructor${checker.signatureToString(sig, decl, F)}`);
    lines.push(
      ...members(statics, decl, '  static ').filter((l) => !l.startsWith('  static prototype:')),
      ...members(instance, decl, '  '),
    );
  } else if (f & ts.SymbolFlags.Interface) {
    lines.push(`interface ${name}`, ...members(checker.getDeclaredTypeOfSymbol(sym), at, '  '));
  } else if (f & ts.SymbolFlags.TypeAlias) {
    const decl = sym.declarations[0];
    const text = printer.printNode(ts.EmitHint.Unspecified, decl.type, decl.getSourceFile());
    lines.push(`type ${name} = ${text.replace(/\s+/g, ' ')}`);
  } else if (f & ts.SymbolFlags.Enum) {
    lines.push(`enum ${name}`, ...checker.getExportsOfModule(sym).map((m) => `  ${m.name}`));
  } else if (f & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbolAtLocation(sym, at);
    for (const sig of type.getCallSignatures())
      lines.push(`function ${name}${checker.signatureToString(sig, at, F)}`);
  } else if (f & ts.SymbolFlags.Variable) {
    lines.push(`const ${name}: ${typeOf(sym, at)}`);
  } else {
    lines.push(`${ts.SymbolFlags[f] ?? f} ${name}`);
  }
  return lines;
}

/** The exported symbol's declaration carries a doc comment of its own (an alias is judged by what it names). */
function documented(exported) {
  const sym = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  return (sym.declarations ?? []).some((d) => {
    // `export const X = …`: the comment sits on the statement, not on the declarator.
    const node = ts.isVariableDeclaration(d) ? d.parent.parent : d;
    // A file's header comment attaches to its first statement: it documents the module, not that declaration,
    // when a blank line parts them.
    const text = node.getSourceFile().text;
    return ts
      .getJSDocCommentsAndTags(node)
      .some((doc) => !/\n[ \t]*\r?\n/.test(text.slice(doc.end, node.getStart())));
  });
}
const undocumented = new Set();

const report = [
  `# ${pkg.name} public API (generated by scripts/api-report.mjs; CI fails when the code differs)`,
  '',
];
for (const entry of entries) {
  const source = program.getSourceFile(entry.file);
  if (!source) throw new Error(`entry point not found: ${entry.file}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const exported = checker.getExportsOfModule(moduleSymbol).sort((a, b) => (a.name < b.name ? -1 : 1));
  report.push(`## ${entry.specifier}`, '');
  for (const sym of exported) {
    report.push(...describe(sym.name, sym, source));
    if (!documented(sym)) undocumented.add(`${entry.specifier}: ${sym.name}`);
  }
  report.push('');
}

// Types a public signature names that no entry point exports: a caller meets them (in a parameter, a field, a
// result) but cannot name them. Listed, with where each is first met, so the gap is visible and tracked.
const publicSymbols = new Set();
for (const entry of entries) {
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry.file));
  for (const sym of checker.getExportsOfModule(moduleSymbol)) publicSymbols.add(resolved(sym));
}
function resolved(sym) {
  return sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
}
const srcDir = path.join(pkgDir, 'src');
const unexported = new Map(); // name → the public name whose signature meets it first
function visitSignatures(sym, from, seen) {
  if (seen.has(sym)) return;
  seen.add(sym);
  for (const decl of sym.declarations ?? []) {
    if (!decl.getSourceFile().fileName.startsWith(srcDir)) continue;
    // A constant with no written type (an object of functions: `agentTree`, `rgFlags`) shows a caller its
    // inferred type: the members' signatures are followed to their own declarations.
    if (ts.isVariableDeclaration(decl) && decl.type === undefined) {
      visitInferred(checker.getTypeOfSymbolAtLocation(sym, decl), from, seen, new Set());
      continue;
    }
    visitDeclaration(decl, from, seen);
  }
}
function visitDeclaration(decl, from, seen) {
  const visit = (node) => {
    // Private and protected members are no part of the surface; neither are function bodies or initialisers.
    if (hidden(node) && node !== decl) return;
    if (ts.isBlock(node) || (ts.isVariableDeclaration(node) && node.type === undefined)) return;
    if (ts.isArrowFunction(node.parent) && node === node.parent.body) return;
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node) || ts.isTypeQueryNode(node)) {
      const name = ts.isTypeReferenceNode(node)
        ? node.typeName
        : ts.isTypeQueryNode(node)
          ? node.exprName
          : node.expression;
      const target = checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : name);
      if (target) meet(resolved(target), from, seen);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(decl, visit);
}
/** A named type of ours met in a public signature: listed when no entry point exports it, and followed. */
function meet(t, from, seen) {
  const at = t.declarations?.[0]?.getSourceFile().fileName;
  if (!at?.startsWith(srcDir) || t.flags & ts.SymbolFlags.TypeParameter) return;
  if (publicSymbols.has(t)) return;
  if (!unexported.has(t.name)) unexported.set(t.name, from);
  visitSignatures(t, from, seen);
}
const NAMED_TYPE =
  ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Enum;
function visitInferred(type, from, seen, types) {
  if (types.has(type)) return;
  types.add(type);
  // A library's wrapper (`Readonly<…>`, `Record<…>`) is looked through; a type of ours is met by name.
  const ours = (sym) => sym?.declarations?.[0]?.getSourceFile().fileName.startsWith(srcDir) === true;
  const named = ours(type.aliasSymbol)
    ? type.aliasSymbol
    : type.symbol && type.symbol.flags & NAMED_TYPE && ours(type.symbol)
      ? type.symbol
      : undefined;
  if (named) return meet(named, from, seen);
  for (const t of type.aliasTypeArguments ?? []) visitInferred(t, from, seen, types);
  if (type.isUnionOrIntersection()) for (const t of type.types) visitInferred(t, from, seen, types);
  for (const sig of type.getCallSignatures())
    if (sig.declaration) visitDeclaration(sig.declaration, from, seen);
  for (const prop of type.getProperties()) {
    const decl = prop.valueDeclaration ?? prop.declarations?.[0];
    if (decl) visitInferred(checker.getTypeOfSymbolAtLocation(prop, decl), from, seen, types);
  }
}
for (const sym of publicSymbols)
  visitSignatures(sym, sym.name, new Set([...publicSymbols].filter((s) => s !== sym)));
if (unexported.size > 0) {
  report.push('## named in a public signature, exported by no entry point', '');
  for (const [name, from] of [...unexported].sort(([a], [b]) => (a < b ? -1 : 1)))
    report.push(`${name} (met in ${from})`);
  report.push('');
}
const text = `${report.join('\n').trimEnd()}\n`;

// Every exported declaration says what it is, as ripgrep's crates deny missing docs.
if (undocumented.size > 0) {
  console.error(
    `exported without a doc comment (/** … */ on the declaration):\n  ${[...undocumented].join('\n  ')}`,
  );
  process.exitCode = 1;
}

if (docsOnly) {
  // The check above is all that was asked.
} else if (!check) {
  fs.writeFileSync(reportPath, text);
  console.log(`wrote ${path.relative(repo, reportPath)}`);
} else {
  const committed = fs.existsSync(reportPath) ? fs.readFileSync(reportPath, 'utf8') : '';
  if (committed === text) {
    console.log(`${path.relative(repo, reportPath)} matches the code`);
  } else {
    const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-api-')), 'api-report.txt');
    fs.writeFileSync(tmp, text);
    spawnSync('diff', ['-u', reportPath, tmp], { stdio: 'inherit' });
    console.error(
      `the public API of ${pkg.name} differs from ${path.relative(repo, reportPath)}: if on purpose, run ` +
        '`npm run api-report` and commit the report',
    );
    process.exitCode = 1;
  }
}
