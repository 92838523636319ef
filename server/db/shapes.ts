/**
 * Queries built and compiled once per shape, then run with each request's values.
 *
 * Kysely builds and compiles a query again on every call: for the lists every operator opens, that
 * came to ~0.2 ms of a request's CPU (a profile of user/list: ~150 µs building, ~65 µs compiling;
 * docs/performance.md, issue 16) — for queries whose SQL text never changes between two requests with
 * the same filters present. A `ShapedQuery` builds its query once per dialect and shape key with a
 * *slot* standing wherever a value is bound (`v.name` in the builder), keeps the compiled text, and
 * on each call hands the driver that text with the call's values in the slots' places.
 *
 * The contract a builder keeps: the query's structure depends only on `shape` (which is all its key
 * must say), and a value from `v` is only ever bound (passed to Kysely as a value), never inspected,
 * transformed or spliced into text (a LIKE pattern is made by the caller and passed as a value). A
 * builder validates nothing and throws nothing on purpose: after a shape's first call it does not run
 * (outside the check), so input is checked before (pageOf, parseRange). Only the SQL text is kept, and
 * only for handles without Kysely plugins (refused: a plugin on one handle would change the text).
 *
 * Under test every call also builds the query the ordinary way with the call's values and checks that
 * it compiles to the very same text and parameters (`SHAPE_CHECK`). A builder that splices a value into
 * text fails at once; one that tests a value (a slot is always truthy) fails when a test passes the
 * falsy value; a key that misses a choice fails when one test file reaches both variants (each file
 * has its own cache). The check compares the builder with itself, not with any earlier query: that a
 * list answers as before is its own tests' job.
 */
import type { Compilable, CompiledQuery, Kysely, Transaction } from 'kysely';
import { dialectOf, type DialectKind } from './dialect';

type AnyDb = Kysely<any> | Transaction<any>;

/** Where a value goes in a shape's compiled parameters. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * Whether every call is checked against the ordinary build (see above). On under Jest; off in the
 * running server, where the check would cost what the cache saves.
 */
export const SHAPE_CHECK = process.env.JEST_WORKER_ID !== undefined || process.env.SHAPE_CHECK === '1';

/**
 * Shapes kept per query and dialect, least recently used first out. The member page's key can take
 * thousands of values (filters × keyword kind × sort × order × cursor × plan); operators use a few dozen.
 */
const MAX_SHAPES = 200;

const slots = new Proxy({} as Record<string, Slot>, {
  get: (_target, name) => {
    if (typeof name !== 'string') throw new Error('a shaped query reads its values by name');
    return new Slot(name);
  },
});

interface Compiled {
  query: CompiledQuery<unknown>;
  /** Per parameter: the slot's value name, or undefined for a constant the builder bound itself. */
  names: (string | undefined)[];
}

export class ShapedQuery<S, V extends object, R> {
  private readonly compiled: Record<DialectKind, Map<string, Compiled>> = { postgres: new Map(), sqlite: new Map() };

  /**
   * `keyOf` names the shape: every choice that changes the query's structure, nothing else. `build`
   * makes the query for a shape, binding values read from `v` (slots while it compiles once).
   */
  constructor(
    private readonly keyOf: (shape: S) => string,
    private readonly build: (db: AnyDb, shape: S, v: V) => Compilable<R>,
    /** Whether calls are checked against the ordinary build (SHAPE_CHECK; a test may turn it off). */
    private readonly check = SHAPE_CHECK,
  ) {}

  /** The query of `shape` with `values` in its slots, compiled (once per shape and dialect). */
  compile(db: AnyDb, shape: S, values: V): CompiledQuery<R> {
    if (db.getExecutor().plugins.length > 0) throw new Error('shaped query: a handle with Kysely plugins');
    const byKey = this.compiled[dialectOf(db as Kysely<unknown>)];
    const key = this.keyOf(shape);
    let c = byKey.get(key);
    if (c) {
      byKey.delete(key); // re-inserted: most recently used last
      byKey.set(key, c);
    } else {
      const query = this.build(db, shape, slots as unknown as V).compile() as CompiledQuery<unknown>;
      const names = query.parameters.map((p) => (p instanceof Slot ? p.name : undefined));
      for (const name of names) {
        if (name !== undefined && !Object.hasOwn(values, name))
          throw new Error(`shaped query: no value for slot ${name}`);
      }
      c = { query, names };
      if (byKey.size >= MAX_SHAPES) byKey.delete(byKey.keys().next().value as string);
      byKey.set(key, c);
    }
    const vals = values as Record<string, unknown>;
    const parameters = c.query.parameters.map((p, i) => {
      const name = c.names[i];
      return name === undefined ? p : vals[name];
    });
    const out = { ...c.query, parameters } as CompiledQuery<R>;
    if (this.check) checkShape(out, this.build(db, shape, values).compile(), key);
    return out;
  }

  /** Runs the query of `shape` with `values`: its rows. */
  async execute(db: AnyDb, shape: S, values: V): Promise<R[]> {
    return (await db.executeQuery<R>(this.compile(db, shape, values))).rows;
  }

  /** Runs it and answers its first row (a count, an aggregate), throwing when there is none. */
  async executeTakeFirstOrThrow(db: AnyDb, shape: S, values: V): Promise<R> {
    const [row] = await this.execute(db, shape, values);
    if (row === undefined) throw new Error('shaped query: no row');
    return row;
  }
}

function checkShape(got: CompiledQuery<unknown>, want: CompiledQuery<unknown>, key: string): void {
  const same =
    got.sql === want.sql &&
    got.parameters.length === want.parameters.length &&
    got.parameters.every((p, i) => Object.is(p, want.parameters[i]));
  if (!same) {
    const params = (q: CompiledQuery<unknown>) =>
      JSON.stringify(q.parameters, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    throw new Error(
      `shaped query (shape ${key}) compiles otherwise than its ordinary build:\n${got.sql}\n${params(got)}\nwanted:\n${want.sql}\n${params(want)}`,
    );
  }
}

/** Which fields of a filter are given: part of a list's shape (a builder tests `s.given.status`). */
export type Given<F> = { readonly [K in keyof F]?: true };

/** The fields of `f` that are given — neither undefined nor '' (an empty text filter filters nothing). */
export function given<F extends object>(f: F): Given<F> {
  const g: Partial<Record<keyof F, true>> = {};
  for (const k of Object.keys(f) as (keyof F)[]) {
    const v = f[k];
    if (v !== undefined && v !== '') g[k] = true;
  }
  return g as Given<F>;
}

/** A `Given` as part of a shape's key (the field names, sorted). */
export const givenKey = (g: Given<object>): string => Object.keys(g).sort().join(',');

/**
 * Puts a list's items into a shaped query's values as `<name>_<i>`: each is bound on its own (`in (…)`),
 * so the list's length is part of the shape and the items are values.
 */
export function listValues(values: Record<string, unknown>, name: string, list: readonly unknown[]): void {
  list.forEach((item, i) => (values[`${name}_${i}`] = item));
}

/** The `n` items listValues put under `name`, as a builder binds them (slots while it compiles once). */
export function listItems(v: object, name: string, n: number): unknown[] {
  return Array.from({ length: n }, (_x, i) => (v as Record<string, unknown>)[`${name}_${i}`]);
}
