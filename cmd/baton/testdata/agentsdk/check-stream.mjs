// Reads what baton printed with --output-format stream-json (or json),
// one file per run named on the command line, and checks every message
// against the Claude Agent SDK's SDKMessage declaration. Prints, for each
// file, the message types read and the problems found, as one JSON
// object for the Go test.
import { readFileSync } from 'node:fs';
import { sdkValidator } from './sdktypes.mjs';

const validate = sdkValidator();
const report = {};
for (const file of process.argv.slice(2)) {
  const problems = [];
  const types = [];
  let messages = [];
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  for (const [i, line] of lines.entries()) {
    try {
      const value = JSON.parse(line);
      messages = messages.concat(Array.isArray(value) ? value : [value]);
    } catch (e) {
      problems.push(`line ${i + 1}: not JSON: ${e.message}`);
    }
  }
  for (const [i, msg] of messages.entries()) {
    types.push(msg.type + (msg.subtype ? '/' + msg.subtype : ''));
    for (const p of validate(msg)) problems.push(`message ${i + 1}: ${p}`);
  }
  report[file] = { types, problems };
}
console.log(JSON.stringify(report));
