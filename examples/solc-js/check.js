#!/usr/bin/env node
// Runs the Solidity compiler's SMTChecker (solc-js) on one contract with Cove as its Horn
// solver, and prints solc's own messages: proved targets, violations, unknowns.
//
//   npm install solc            # once, in this directory (any 0.8.x release)
//   node check.js CONTRACT.sol [--cove PATH] [--timeout SECONDS] [--invariants]
//
// solc-js hands every CHC query to the `smtSolver` callback below; the callback runs Cove
// in Eldarica's calling convention (`cove eld -hsmt -in -t:N [-ssol]`, see
// docs/solidity.md) and returns its output unchanged: `sat` (safe, with the invariants
// after it when --invariants asks solc for them), `unsat` (a violation) or `unknown`.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const solc = require('solc');

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const cove = opt('--cove', process.env.COVE || 'cove');
const timeout = Number(opt('--timeout', '10'));
const invariants = args.includes('--invariants');
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: node check.js CONTRACT.sol [--cove PATH] [--timeout SECONDS] [--invariants]');
  process.exit(1);
}

const modelChecker = {
  engine: 'chc',
  solvers: ['smtlib2'], // solc-js: every query goes to the callback
  timeout: timeout * 1000,
  showProvedSafe: true,
  showUnproved: true,
  targets: ['assert', 'underflow', 'overflow', 'divByZero', 'popEmptyArray', 'outOfBounds', 'balance'],
};
if (invariants) modelChecker.invariants = ['contract', 'reentrancy'];
const input = {
  language: 'Solidity',
  sources: { [path.basename(file)]: { content: fs.readFileSync(file, 'utf8') } },
  settings: { modelChecker, outputSelection: { '*': { '*': [] } } },
};

let queries = 0;
function smtSolver(query) {
  queries += 1;
  const eldArgs = ['eld', '-hsmt', '-in', `-t:${timeout}`].concat(invariants ? ['-ssol'] : []);
  const r = spawnSync(cove, eldArgs, { input: query, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error || !/^(sat|unsat|unknown)\b/.test(r.stdout || '')) {
    return { error: `cove: ${r.error || (r.stderr || '').trim() || 'no answer'}` };
  }
  return { contents: r.stdout };
}

const out = JSON.parse(solc.compile(JSON.stringify(input), { smtSolver }));
for (const e of out.errors || []) console.log(e.formattedMessage.trimEnd() + '\n');
console.log(`solc ${solc.version()}: ${queries} Horn queries answered by Cove`);
