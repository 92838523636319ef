/**
 * Schema-driven fuzzing of every /v1 route, on SQLite and (with TEST_DATABASE_URL) on PostgreSQL: the
 * route table and each route's body and query schemas are read from the route modules themselves, so a
 * route added later is covered without touching this file. Every field gets hostile values of its kind
 * (NUL and other control characters, ids of 2^63, 2^64, 1e300 and below zero, lone surrogates, huge
 * strings…): the answer is always an envelope, never a 500; a control character is a 400 naming the
 * field; an out-of-range number is a 400.
 */
import Fastify from 'fastify';
import { MAX_ID, MULTILINE, DECIMAL_FORMAT } from '../../../server/http/schemas';
import { IMAGE_URL_PATTERN } from '../../../domain/formats';
import { routeModules } from '../../../server/modules';
import { build, dbKind, type TestApp } from '../helpers';

type S = Record<string, any>;

interface RouteSpec {
  method: 'GET' | 'POST';
  url: string;
  /** 'body' or 'query': where the route reads its input. */
  part?: 'body' | 'query';
  schema?: S;
}

/** Every /v1 route with its input schema, as the route modules declare them. */
async function routeSpecs(t: TestApp): Promise<RouteSpec[]> {
  const app = Fastify();
  app.setValidatorCompiler(() => () => true); // only the declarations are wanted here, not validators
  const out: RouteSpec[] = [];
  app.addHook('onRoute', (r) => {
    if (!r.url.startsWith('/v1/')) return;
    for (const method of [r.method].flat()) {
      if (method !== 'GET' && method !== 'POST') continue;
      const schema = (r.schema ?? {}) as S;
      const part = schema.body ? 'body' : schema.querystring ? 'query' : undefined;
      out.push({
        method: method as 'GET' | 'POST',
        url: r.url,
        part,
        schema: part === 'body' ? schema.body : schema.querystring,
      });
    }
  });
  for (const mod of routeModules) await app.register(mod, { ctx: t.app.ctx });
  await app.ready();
  await app.close();
  return out.sort((a, b) => `${a.method} ${a.url}`.localeCompare(`${b.method} ${b.url}`));
}

const branches = (s: S | undefined): S[] => (s ? [s, ...((s.anyOf ?? []) as S[])] : []);
const isIntegerLike = (s: S) => branches(s).some((b) => b.type === 'integer' || b.type === 'number');
const isStringLike = (s: S) => branches(s).some((b) => b.type === 'string');
const isMultiline = (s: S) => branches(s).some((b) => b[MULTILINE] === true);
const titleOf = (s: S | undefined) => branches(s).find((b) => b.title)?.title as string | undefined;

/** A value the schema takes, or at least one of its type: the rest of a request around a hostile field. */
function sample(s: S | undefined): unknown {
  if (!s) return undefined;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.anyOf) return sample(s.anyOf[0]);
  if (s.default !== undefined) return s.default;
  switch (s.type) {
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return s.minItems ? [sample(s.items)] : [];
    case 'object':
      return Object.fromEntries(((s.required ?? []) as string[]).map((k) => [k, sample(s.properties[k])]));
    case 'string':
      return s.examples?.[0] ?? 'a'.repeat(Math.max(1, s.minLength ?? 1));
    default:
      return undefined;
  }
}

/** Numbers no integer field takes: each must be a 400, as a JSON number and as text. */
const OUT_OF_RANGE: Array<number | string> = [
  2 ** 63,
  2 ** 64,
  1e300,
  -(2 ** 63),
  '9223372036854775808',
  '18446744073709551616',
  '-9223372036854775809',
  '1e300',
  'Infinity',
  '-Infinity',
  '1e999',
];
/** Odd numbers that need only not break anything. */
const ODD_NUMBERS: Array<number | string> = [-1, 0, 1.5, 'NaN', '0x10', '', ' 1', '1 ', '١٢'];
/** Text no field takes. */
const CONTROL = ['\u0000', 'a\u0000b', '\u001b[2J', 'x\u007f', '\u0085', '\u009b31m', '\b'];
/** Line breaks and tabs: only multi-line fields take them. */
const BREAKS = ['a\nb', 'a\r\nb', '\tx'];
/** Text that is allowed or refused, but never a 500. */
const ODD_TEXT = [
  '\ud800',
  "' or 1=1 --",
  '%00',
  '😀'.repeat(30),
  'x'.repeat(5000),
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '  ',
  '',
  '0',
  '-1',
  '9223372036854775808',
];

interface Case {
  field: string;
  value: unknown;
  /** What the answer must be: a 400 whose message is `msg` (when given), or anything but a 500. */
  expect: { code: 400; msg?: string } | 'no500';
}

/** The hostile cases of one field: its own kind's values, placed in an array for array fields. */
function casesOf(field: string, s: S, inBody: boolean): Case[] {
  const arr = branches(s).find((b) => b.type === 'array');
  const item: S = arr ? (arr.items ?? {}) : s;
  const wrap = (v: unknown) => (arr ? [v] : v);
  const name = titleOf(item) ?? titleOf(s) ?? '参数';
  const out: Case[] = [];
  if (isIntegerLike(item)) {
    for (const v of OUT_OF_RANGE) out.push({ field, value: wrap(inBody ? v : String(v)), expect: { code: 400 } });
    for (const v of ODD_NUMBERS) out.push({ field, value: wrap(v), expect: 'no500' });
  }
  if (isStringLike(item) || !isIntegerLike(item)) {
    for (const v of CONTROL) {
      out.push({ field, value: wrap(v), expect: { code: 400, msg: `${name}不能包含控制字符` } });
    }
    for (const v of BREAKS) {
      out.push({
        field,
        value: wrap(v),
        expect: isMultiline(item) ? 'no500' : { code: 400, msg: `${name}不能包含控制字符` },
      });
    }
    for (const v of ODD_TEXT) out.push({ field, value: wrap(v), expect: 'no500' });
    if (inBody)
      for (const v of [1e300, -(2 ** 63), true, null, {}, [[]]]) out.push({ field, value: v, expect: 'no500' });
  }
  return out;
}

describe(`every route survives hostile input (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let specs: RouteSpec[];
  beforeAll(async () => {
    t = await build();
    token = await t.login();
    specs = await routeSpecs(t);
  });
  afterAll(() => t.close());

  async function send(r: RouteSpec, input: unknown): Promise<{ status: number; code: number; msg: string }> {
    try {
      return await sendOnce(r, input);
    } catch (err) {
      // A response torn down half way (a streamed export failing in its query) is a failure too.
      return { status: 0, code: 0, msg: String(err) };
    }
  }

  async function sendOnce(r: RouteSpec, input: unknown): Promise<{ status: number; code: number; msg: string }> {
    const res = await t.app.inject({
      method: r.method,
      url: r.url,
      ...(r.part === 'body' ? { payload: input as object } : {}),
      ...(r.part === 'query' ? { query: input as Record<string, string> } : {}),
      headers: { authorization: token },
    });
    if (!String(res.headers['content-type'] ?? '').includes('application/json')) {
      return { status: res.statusCode, code: res.statusCode, msg: '' }; // a file download (exports)
    }
    const body = res.json() as { code: number; msg: string };
    return { status: res.statusCode, code: body.code, msg: body.msg };
  }

  it('finds the routes and their input schemas', () => {
    expect(specs.length).toBeGreaterThan(30);
    expect(specs.filter((r) => r.schema).length).toBeGreaterThan(25);
  });

  it('answers every hostile value of every field of every route with an envelope, never a 500', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const r of specs) {
      if (!r.schema || r.url === '/v1/admin/user/logout') continue;
      const base = (sample(r.schema) ?? {}) as Record<string, unknown>;
      const asQuery = (o: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]));
      const fields = Object.entries((r.schema.properties ?? {}) as Record<string, S>);
      const cases = fields.flatMap(([f, s]) => casesOf(f, s, r.part === 'body'));
      // A key or a value the schema does not know, with a control character in it.
      cases.push({ field: 'a\u0000', value: '1', expect: { code: 400, msg: '参数名不能包含控制字符' } });
      cases.push({ field: 'zzz', value: 'a\u0000', expect: { code: 400, msg: '参数不能包含控制字符' } });
      for (const c of cases) {
        const input = { ...base, [c.field]: c.value };
        let res = await send(r, r.part === 'query' ? asQuery(input) : input);
        if (res.code === 301 || res.code === 302) {
          token = await t.login(); // the case ended the session (a password change): go on with a new one
          res = await send(r, r.part === 'query' ? asQuery(input) : input);
        }
        sent++;
        const what = `${r.method} ${r.url} ${c.field}=${JSON.stringify(c.value)?.slice(0, 40)}`;
        if (res.status !== 200 || res.code === 500) failures.push(`${what} → HTTP ${res.status} code ${res.code}`);
        else if (c.expect !== 'no500') {
          if (res.code !== 400 || (c.expect.msg !== undefined && res.msg !== c.expect.msg)) {
            failures.push(`${what} → ${res.code} ${res.msg} (want 400 ${c.expect.msg ?? ''})`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
  }, 300_000);

  it('refuses a JSON number in every decimal (money) field of every body, naming the field', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const r of specs) {
      if (r.part !== 'body' || !r.schema) continue;
      for (const [f, s] of Object.entries((r.schema.properties ?? {}) as Record<string, S>)) {
        if (!branches(s).some((b) => b.format === DECIMAL_FORMAT)) continue;
        checked++;
        const res = await send(r, { ...(sample(r.schema) as object), [f]: 12345678.901234 });
        const want = `${titleOf(s)}须以字符串提交（如"12.5"），不能是数字`;
        if (res.code !== 400 || res.msg !== want) failures.push(`${r.url} ${f} → ${res.code} ${res.msg}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(7);
  });
});

describe('every route’s input schema is bounded (static walk)', () => {
  let t: TestApp;
  let specs: RouteSpec[];
  beforeAll(async () => {
    t = await build();
    specs = await routeSpecs(t);
  });
  afterAll(() => t.close());

  /** Every schema node of a route's input with its path. */
  function* walk(s: S | undefined, path: string): Generator<[string, S]> {
    if (!s) return;
    yield [path, s];
    for (const b of (s.anyOf ?? []) as S[]) yield* walk(b, path);
    for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, S>)) yield* walk(p, `${path}.${k}`);
    if (s.items) yield* walk(s.items, `${path}[]`);
  }

  it('bounds every integer to what its column and a JSON number hold', () => {
    const loose: string[] = [];
    for (const r of specs) {
      for (const [path, s] of walk(r.schema, `${r.method} ${r.url}`)) {
        if (s.type !== 'integer' && s.type !== 'number') continue;
        if (Array.isArray(s.enum)) continue;
        if (!(typeof s.maximum === 'number' && s.maximum <= MAX_ID && typeof s.minimum === 'number')) loose.push(path);
      }
    }
    expect(loose).toEqual([]);
  });

  it('bounds the length of every text and gives every field a Chinese name', () => {
    const loose: string[] = [];
    for (const r of specs) {
      for (const [path, s] of walk(r.schema, `${r.method} ${r.url}`)) {
        const bounded = typeof s.maxLength === 'number' || Array.isArray(s.enum) || 'const' in s || s.pattern;
        if (s.type === 'string' && !bounded) loose.push(`${path} maxLength`);
      }
      for (const [f, s] of Object.entries((r.schema?.properties ?? {}) as Record<string, S>)) {
        if (!/[\u4e00-\u9fff]/.test(titleOf(s) ?? '')) loose.push(`${r.method} ${r.url}.${f} title`);
      }
    }
    expect(loose).toEqual([]);
  });

  it('gives every image URL the http(s)-or-/uploads format and every money field the decimal format', () => {
    const loose: string[] = [];
    for (const r of specs) {
      for (const [f, s] of Object.entries((r.schema?.properties ?? {}) as Record<string, S>)) {
        if (/url$/i.test(f) && s.pattern !== IMAGE_URL_PATTERN) loose.push(`${r.url}.${f}`);
        if (r.part === 'body' && /amount|^min$|^max$|fee|rate|approvemax/i.test(f) && s.format !== DECIMAL_FORMAT) {
          loose.push(`${r.url}.${f}`);
        }
      }
    }
    expect(loose).toEqual([]);
  });
});
