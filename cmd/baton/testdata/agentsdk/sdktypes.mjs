// A reader written for Claude Code's output: it checks a message against
// the Claude Agent SDK's own declaration of SDKMessage (sdk.d.ts), read
// with the TypeScript compiler, so the check is the SDK's word on what a
// message holds, not a copy of it. Every required property must be there
// with a value of its declared type; properties the SDK does not declare
// (baton's own) are passed by, as a Claude Code reader passes them by.
import ts from 'typescript';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

export function sdkValidator() {
  const sdkDir = path.dirname(require.resolve('@anthropic-ai/claude-agent-sdk'));
  const file = path.join(sdkDir, 'sdk.d.ts');
  const program = ts.createProgram([file], { strict: true, skipLibCheck: true, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const alias = source.statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === 'SDKMessage');
  if (!alias) throw new Error('SDKMessage is not declared in ' + file);
  const messageType = checker.getTypeAtLocation(alias.name);

  // check returns the problems of value against type, each with its path.
  function check(value, type, where, depth) {
    if (depth > 12) return [];
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return [];
    if (type.isUnion()) {
      let best = null;
      const members = type.types.filter((m) => discriminated(m, value));
      for (const member of members.length > 0 ? members : type.types) {
        const errs = check(value, member, where, depth);
        if (errs.length === 0) return [];
        if (!best || errs.length < best.length) best = errs;
      }
      return best;
    }
    if (f & ts.TypeFlags.Null) return value === null ? [] : [`${where}: expected null`];
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return value === undefined ? [] : [`${where}: expected undefined`];
    if (type.isStringLiteral()) return value === type.value ? [] : [`${where}: expected "${type.value}", got ${JSON.stringify(value)}`];
    if (type.isNumberLiteral()) return value === type.value ? [] : [`${where}: expected ${type.value}`];
    if (f & ts.TypeFlags.BooleanLiteral) {
      const want = checker.typeToString(type) === 'true';
      return value === want ? [] : [`${where}: expected ${want}`];
    }
    if (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) {
      return typeof value === 'string' ? [] : [`${where}: expected a string, got ${JSON.stringify(value)}`];
    }
    if (f & ts.TypeFlags.Number) return typeof value === 'number' ? [] : [`${where}: expected a number, got ${JSON.stringify(value)}`];
    if (f & ts.TypeFlags.Boolean) return typeof value === 'boolean' ? [] : [`${where}: expected a boolean`];
    if (type.isIntersection()) return type.types.flatMap((t) => check(value, t, where, depth));
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      if (!Array.isArray(value)) return [`${where}: expected an array, got ${JSON.stringify(value)}`];
      const [elem] = checker.getTypeArguments(type);
      return elem ? value.flatMap((v, i) => check(v, elem, `${where}[${i}]`, depth + 1)) : [];
    }
    if (f & ts.TypeFlags.Object) {
      const props = checker.getPropertiesOfType(type);
      if (props.length === 0 && checker.getIndexInfosOfType(type).length === 0 && !checker.isArrayType(type)) {
        // {} (as in string & {}) takes any value but null and undefined.
        return value !== null && value !== undefined ? [] : [`${where}: expected a value`];
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${where}: expected an object, got ${JSON.stringify(value)}`];
      const errs = [];
      for (const prop of props) {
        const name = prop.getName();
        const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
        if (!(name in value)) {
          if (!optional) errs.push(`${where}.${name}: required, missing`);
          continue;
        }
        const decl = prop.valueDeclaration ?? prop.declarations?.[0];
        const propType = decl ? checker.getTypeOfSymbolAtLocation(prop, decl) : checker.getTypeOfSymbol(prop);
        if (optional && value[name] === undefined) continue;
        errs.push(...check(value[name], propType, `${where}.${name}`, depth + 1));
      }
      const index = checker.getIndexInfosOfType(type);
      for (const info of index) {
        for (const [k, v] of Object.entries(value)) errs.push(...check(v, info.type, `${where}[${k}]`, depth + 1));
      }
      return errs;
    }
    return [];
  }

  // discriminated reports whether a union member can be the value's by
  // its type and subtype tags, so a message is checked against its own
  // declaration rather than whichever member it misses least.
  function discriminated(member, value) {
    if (value === null || typeof value !== 'object' || !(member.flags & ts.TypeFlags.Object)) return false;
    for (const key of ['type', 'subtype']) {
      const prop = checker.getPropertyOfType(member, key);
      if (!prop) continue;
      const decl = prop.valueDeclaration ?? prop.declarations?.[0];
      const t = decl ? checker.getTypeOfSymbolAtLocation(prop, decl) : checker.getTypeOfSymbol(prop);
      const literals = (t.isUnion() ? t.types : [t]).filter((x) => x.isStringLiteral()).map((x) => x.value);
      if (literals.length > 0 && !literals.includes(value[key])) return false;
    }
    return true;
  }

  // validate checks one message against SDKMessage and names the member
  // it was taken for when it fails.
  return function validate(msg) {
    const errs = check(msg, messageType, msg && msg.type ? `${msg.type}${msg.subtype ? '/' + msg.subtype : ''}` : 'message', 0);
    return errs;
  };
}
