/**
 * Every 400 names its field in Chinese: each query parameter and body property of every route has a
 * Chinese `title` (found by walking the OpenAPI document the routes produce), and the formatter finds
 * it even when the error comes from inside the field (a union branch, an array item).
 */
import { build, dbKind, type TestApp } from '../helpers';
import { titleAlong, validationMessage } from '../../../server/plugins/errors';

const CHINESE = /[\u4e00-\u9fff]/;

type Schema = Record<string, any>;

/** Paths (route › field) of body properties without a Chinese title; `inherited` is the parent's title. */
function untitled(schema: Schema | undefined, where: string, inherited?: string): string[] {
  if (!schema) return [];
  const own = typeof schema.title === 'string' && CHINESE.test(schema.title) ? schema.title : undefined;
  const title = own ?? inherited;
  const out: string[] = [];
  for (const b of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    out.push(...untitled(b, where, title));
  }
  if (schema.items) out.push(...untitled(schema.items, `${where}[]`, title));
  for (const [name, prop] of Object.entries<Schema>(schema.properties ?? {})) {
    const propTitle = typeof prop.title === 'string' && CHINESE.test(prop.title) ? prop.title : undefined;
    if (!propTitle) out.push(`${where}.${name}`);
    out.push(...untitled(prop, `${where}.${name}`, propTitle));
  }
  return out;
}

describe(`every field has a Chinese name (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives every query parameter and body property of every route a Chinese title', () => {
    const spec = t.app.swagger() as any;
    const missing: string[] = [];
    let fields = 0;
    for (const [path, ops] of Object.entries<Record<string, any>>(spec.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        for (const p of op.parameters ?? []) {
          fields++;
          const title = p.schema?.title;
          if (!(typeof title === 'string' && CHINESE.test(title))) missing.push(`${where} ?${p.name}`);
          else missing.push(...untitled(p.schema, `${where} ?${p.name}`, title));
        }
        const body = op.requestBody?.content?.['application/json']?.schema;
        fields += Object.keys(body?.properties ?? {}).length;
        missing.push(...untitled(body, `${where} body`));
      }
    }
    expect(fields).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('names `order` in Chinese when its value is not one of the choices', async () => {
    const token = await t.login();
    const r = await t.call('GET', '/v1/admin/user/list', { token, query: { order: 'sideways' } });
    expect(r).toEqual({ code: 400, msg: '排序方向取值无效', data: null });
  });

  it('names an array item by its array, and a union branch by its union', () => {
    const root = {
      type: 'object',
      properties: {
        ids: { type: 'array', title: '记录ID', items: { type: 'integer', minimum: 1 } },
        order: { title: '排序方向', anyOf: [{ const: 'asc' }, { const: 'desc' }] },
        inner: {
          anyOf: [{ type: 'object', properties: { name: { type: 'string', title: '名称' } } }, { type: 'null' }],
        },
      },
    };
    expect(titleAlong(root, ['ids', '3'])).toBe('记录ID');
    expect(titleAlong(root, ['order'])).toBe('排序方向');
    expect(titleAlong(root, ['inner', 'name'])).toBe('名称');
    expect(
      validationMessage([{ keyword: 'minimum', instancePath: '/ids/3', params: { limit: 1 }, parentSchema: {} }], root),
    ).toBe('记录ID不能小于1');
    expect(
      validationMessage(
        [
          { keyword: 'const', instancePath: '/order', params: {}, parentSchema: { const: 'asc' } },
          { keyword: 'anyOf', instancePath: '/order', params: {}, parentSchema: root.properties.order },
        ],
        root,
      ),
    ).toBe('排序方向取值无效');
    // Without the route's schema nothing English leaks either.
    expect(validationMessage([{ keyword: 'type', instancePath: '/order', params: {}, parentSchema: {} }])).toBe(
      '参数格式不正确',
    );
  });
});
