#!/usr/bin/env node
// Keeps the house small (issue 21): fails on any source file in src/ over MAX_FILE_LINES lines, or
// any function, method, accessor or arrow function over MAX_FUNCTION_LINES lines (from its first
// line to its last, nested functions included), naming each by file:line with its length. Parsed
// with the TypeScript compiler, so a brace in a string or a regex never misleads it.
//
//   node scripts/check-size.mjs            (exit 1 and one line per violation when any)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const MAX_FILE_LINES = 500;
const MAX_FUNCTION_LINES = 100;
const ROOT = new URL('..', import.meta.url).pathname;
/**
 * Generated data, not code to read: the gitleaks rule table (scripts/gitleaks-rules.py writes it
 * from gitleaks' own config, and a hand edit would be lost at the next generation).
 */
const EXEMPT = new Set(['src/gitleaks-rules.ts']);

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(e.name) && !/\.d\.ts$/.test(e.name) ? [path] : [];
  });
}

/** A function's name as a reader would look for it: `name`, `Class.method`, or where it is. */
function nameOf(node) {
  const named = node.name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
  const prop =
    ts.isPropertyAssignment(node.parent) || ts.isPropertyDeclaration(node.parent)
      ? node.parent.name
      : undefined;
  const id = named ?? prop;
  let name =
    id && (ts.isIdentifier(id) || ts.isStringLiteral(id) || ts.isPrivateIdentifier(id)) ? id.text : undefined;
  if (ts.isConstructorDeclaration(node)) name = 'constructor';
  const owner = ts.isClassLike(node.parent) && node.parent.name ? `${node.parent.name.text}.` : '';
  return name ? `${owner}${name}` : '(anonymous function)';
}

const problems = [];
for (const path of sourceFiles(join(ROOT, 'src'))) {
  const file = relative(ROOT, path);
  if (EXEMPT.has(file)) continue;
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines = source.getLineStarts().length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES) problems.push(`${file}: ${lines} lines (at most ${MAX_FILE_LINES})`);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = last - first + 1;
      if (length > MAX_FUNCTION_LINES)
        problems.push(
          `${file}:${first + 1}: ${nameOf(node)} is ${length} lines (at most ${MAX_FUNCTION_LINES})`,
        );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
for (const p of problems) console.error(p);
if (problems.length > 0) {
  console.error(
    `check-size: ${problems.length} over the limits; split them into smaller modules or functions`,
  );
  process.exit(1);
}
