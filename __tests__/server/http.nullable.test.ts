/**
 * `Nullable` (server/http/schemas.ts): `T` or null as OpenAPI 3.0 spells it, so that Fastify's response
 * serializer takes its plain null test instead of validating an anyOf's branches for every value.
 */
import path from 'node:path';
import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { Nullable, NullableInt, NullableString } from '../../server/http/schemas';
import { sourceFiles } from '../domain/serverSources';

const SERVER = path.join(__dirname, '../../server');

/** Every `*.schema.ts` of the server, and the shared blocks. */
function schemaFiles(): string[] {
  const modules = sourceFiles(path.join(SERVER, 'modules')).filter((f) => f.endsWith('.schema.ts'));
  return [path.join(SERVER, 'http/schemas.ts'), ...modules];
}

/** The places under `node` that spell "or null" otherwise: an anyOf/oneOf branch or a type list with null. */
function nullUnions(node: unknown, at: string, out: string[]): string[] {
  if (!node || typeof node !== 'object') return out;
  const n = node as Record<string, unknown>;
  for (const key of ['anyOf', 'oneOf']) {
    const branches = n[key];
    if (Array.isArray(branches) && branches.some((b) => (b as { type?: unknown })?.type === 'null')) {
      out.push(`${at}/${key}`);
    }
  }
  if (Array.isArray(n.type) && n.type.includes('null')) out.push(`${at}/type`);
  for (const [k, v] of Object.entries(n)) nullUnions(v, `${at}/${k}`, out);
  return out;
}

describe('Nullable', () => {
  it('is the type with nullable: true, keeping its options', () => {
    expect(NullableInt).toMatchObject({ type: 'integer', nullable: true });
    expect(NullableString).toMatchObject({ type: 'string', nullable: true });
    expect(Nullable(Type.String({ maxLength: 3 }), { description: 'd' })).toMatchObject({
      type: 'string',
      maxLength: 3,
      description: 'd',
      nullable: true,
    });
    expect(JSON.stringify(Nullable(Type.Object({ a: Type.String() })))).not.toContain('anyOf');
  });

  it('refuses a schema without a single type (a union has none) or with an $id', () => {
    expect(() => Nullable(Type.Union([Type.String(), Type.Integer()]))).toThrow('Nullable');
    expect(() => Nullable(Type.String({ $id: 'Name' }))).toThrow('$id');
  });

  it('lists null in an enum, which nullable does not widen', async () => {
    const Asset = Type.Unsafe<'USDT' | 'LZ'>({ type: 'string', enum: ['USDT', 'LZ'] });
    expect(Nullable(Asset)).toMatchObject({ enum: ['USDT', 'LZ', null], nullable: true });
    const app = Fastify();
    app.post('/asset', { schema: { body: Type.Object({ a: Nullable(Asset) }) } }, async (req) => req.body);
    try {
      for (const a of [null, 'LZ']) {
        expect((await app.inject({ method: 'POST', url: '/asset', payload: { a } })).json()).toEqual({ a });
      }
      expect((await app.inject({ method: 'POST', url: '/asset', payload: { a: 'BTC' } })).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });

  it('serializes null and values through Fastify, dropping undeclared fields, and validates input with it', async () => {
    const app = Fastify();
    const Row = Type.Object({
      n: NullableInt,
      s: NullableString,
      o: Nullable(Type.Object({ a: Type.String() })),
    });
    app.post(
      '/echo',
      { schema: { body: Type.Object({ n: NullableInt }), response: { 200: Type.Array(Row) } } },
      async (req) => {
        const n = (req.body as { n: number | null }).n;
        return [
          { n, s: null, o: null },
          { n: 7, s: 'x', o: { a: 'q', secret: 1 } },
        ];
      },
    );
    try {
      const ok = await app.inject({ method: 'POST', url: '/echo', payload: { n: null } });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toBe('[{"n":null,"s":null,"o":null},{"n":7,"s":"x","o":{"a":"q"}}]');
      expect((await app.inject({ method: 'POST', url: '/echo', payload: { n: 3 } })).json()[0].n).toBe(3);
      expect((await app.inject({ method: 'POST', url: '/echo', payload: { n: 'a' } })).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });

  it('is what every schema of the server uses for "or null" (no anyOf with a null branch)', async () => {
    const found: string[] = [];
    const files = schemaFiles();
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        nullUnions(value, `${path.relative(SERVER, file)}:${name}`, found);
      }
    }
    expect(found).toEqual([]);
  });
});
