/**
 * Reads by key that arrive together share one statement: every `load(key)` asked for in the same turn
 * of the event loop (the requests whose bytes one poll phase delivered) waits until the loop's check
 * phase, then one `loadMany(keys)` answers them all. Nothing is kept between turns: each key is read
 * from the database after it was asked for, exactly as a statement of its own would read it, so a
 * change committed before the statement runs is seen. What is shared is the round trip (on PostgreSQL
 * ~0.1 ms of CPU per statement on each side, docs/performance.md), not an answer.
 *
 * Alone, a key pays one turn of the loop (no timer: setImmediate) and one statement, as before.
 */
export class CoalescedReads<K, V> {
  private waiting = new Map<K, { resolve: (v: V | undefined) => void; reject: (e: unknown) => void }[]>();
  private scheduled = false;

  /**
   * `loadMany` answers the keys it found (a key left out is answered `undefined`); it is given at most
   * `maxKeys` distinct keys at once.
   */
  constructor(
    private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>,
    private readonly maxKeys = 100,
  ) {}

  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(key);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const all = this.waiting;
    this.waiting = new Map();
    const keys = [...all.keys()];
    for (let i = 0; i < keys.length; i += this.maxKeys) {
      const part = keys.slice(i, i + this.maxKeys);
      // loadMany may throw before it returns a promise, or answer something that is not a Map: either
      // fails this part's waiters (a waiter already answered ignores the second call).
      Promise.resolve()
        .then(() => this.loadMany(part))
        .then((found) => {
          for (const k of part) for (const w of all.get(k)!) w.resolve(found.get(k));
        })
        .catch((err: unknown) => {
          for (const k of part) for (const w of all.get(k)!) w.reject(err);
        });
    }
  }
}
