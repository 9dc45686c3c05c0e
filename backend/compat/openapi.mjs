// Zulip's OpenAPI description as a validator for Lanchat's answers and events.
//
// The description is the yaml of the feature level the server announces, in
// ../shared/openapi/ beside the repository (CI clones shared/ there); see
// yamlFor. It is read unchanged; the amendments in openapi-amendments.mjs
// (the product spec's own fields, and the yaml's errata) are applied to this
// process's parsed copy only.
//
// Validator: Ajv (https://ajv.js.org), the most used and maintained JSON
// Schema validator for JavaScript; it runs here, beside the zulip-js tests,
// so Go gains no dependency. OpenAPI 3.0 schemas are a dialect of JSON
// Schema, translated below:
//   - `nullable: true` becomes a type union with "null" (an `enum` gains null);
//     without a `type` (a `$ref` or `allOf`) the schema is wrapped in
//     `anyOf: [schema, {type: "null"}]`;
//   - `oneOf` becomes `anyOf`: the yaml uses it for unions whose branches can
//     overlap (six BAD_REQUEST variants of one shape, say), where JSON Schema's
//     "exactly one" would refuse every answer;
//   - `example`, `examples`, `deprecated` and every `x-*` key are dropped
//     (documentation, no constraint).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { amend } from './openapi-amendments.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// Zulip's descriptions by the feature level they describe, lowest first.
const YAMLS = [
  { level: 277, file: 'zulip-9.0-fl277.yaml' },
  { level: 371, file: 'zulip-10.0-fl371.yaml' },
];

// yamlFor names the description a server announcing `level` is held to: the
// first one at or above it (a level between two releases owes some of the
// next one's changes, and a client written against that release parses its
// answers by its schema). A level past the newest known one has no yaml.
export function yamlFor(level) {
  const found = YAMLS.find((y) => y.level >= level);
  if (!found) throw new Error(`no Zulip OpenAPI description for feature level ${level} in ../shared/openapi`);
  return resolve(repoRoot, '../shared/openapi', found.file);
}

const dropped = new Set(['example', 'examples', 'deprecated']);

// translate turns one OpenAPI 3.0 node into JSON Schema, recursively.
export function translate(node) {
  if (Array.isArray(node)) return node.map(translate);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (dropped.has(key) || key.startsWith('x-') || key === 'nullable') continue;
    out[key === 'oneOf' ? 'anyOf' : key] = translate(value);
  }
  if (node.nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (out.enum && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

const pointer = (parts) => '#/' + parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

// The parsed, amended description for a feature level and an Ajv instance
// holding it as "zulip".
export function loadZulipOpenAPI(level) {
  const path = yamlFor(level);
  const doc = parse(readFileSync(path, 'utf8'));
  amend(doc);
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
  ajv.addSchema(translate(doc), 'zulip');
  const compiled = new Map();
  const compile = (ptr) => {
    if (!compiled.has(ptr)) compiled.set(ptr, ajv.compile({ $ref: 'zulip' + ptr }));
    return compiled.get(ptr);
  };
  const at = (ptr) => ptr.slice(2).split('/').reduce((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);

  return {
    doc,
    path,
    // The operation "METHOD /path" (the yaml's path, without /api/v1), or undefined.
    operation(op) {
      const [method, path] = op.split(' ');
      return doc.paths[path]?.[method.toLowerCase()];
    },
    // The JSON pointer of the response schema of an operation for one status, or undefined.
    responsePointer(op, status) {
      const [method, path] = op.split(' ');
      let ptr = pointer(['paths', path, method.toLowerCase(), 'responses', String(status)]);
      let response = at(ptr);
      while (response?.$ref) {
        ptr = response.$ref;
        response = at(ptr);
      }
      if (!response?.content?.['application/json']?.schema) return undefined;
      return ptr + '/content/application~1json/schema';
    },
    // validate(ptr, value) → list of readable errors, empty when the value conforms.
    validate(ptr, value) {
      const check = compile(ptr);
      if (check(value)) return [];
      return check.errors.map((e) => `${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? ` '${e.params.additionalProperty}'` : ''}${e.params?.allowedValues ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`);
    },
    // The event variants of GET /events: [{type, ops, ptr}] with ops empty when the variant has no `op`.
    eventVariants() {
      const base = pointer(['paths', '/events', 'get', 'responses', '200', 'content', 'application/json', 'schema']);
      const schema = at(base);
      const itemsAt = schema.allOf.findIndex((s) => s.properties?.events);
      const variants = schema.allOf[itemsAt].properties.events.items.oneOf;
      const ptrOf = (i) => `${base}/allOf/${itemsAt}/properties/events/items/anyOf/${i}`;
      // A variant lists its properties itself or in an allOf branch.
      const prop = (v, key) => [v, ...(v.allOf ?? [])].map((s) => (s.$ref ? at(s.$ref) : s).properties?.[key]).find(Boolean);
      return variants.map((v, i) => ({
        types: enumOf(prop(v, 'type'), at),
        ops: enumOf(prop(v, 'op'), at),
        ptr: ptrOf(i),
      }));
    },
  };
}

// enumOf collects the enum values a (possibly allOf-composed) schema allows.
function enumOf(schema, at) {
  if (!schema) return [];
  if (schema.$ref) return enumOf(at(schema.$ref), at);
  return [...(schema.enum ?? []), ...(schema.allOf ?? []).flatMap((s) => enumOf(s, at))];
}
