import { CoalescedReads } from '../../../server/db/coalesce';

describe('CoalescedReads', () => {
  /** A loader that records each call's keys and answers `v:<key>` for keys not in `missing`. */
  const recording = (missing: string[] = []) => {
    const calls: string[][] = [];
    const reads = new CoalescedReads<string, string>(async (keys) => {
      calls.push(keys);
      return new Map(keys.filter((k) => !missing.includes(k)).map((k) => [k, `v:${k}`]));
    }, 3);
    return { calls, reads };
  };

  it('answers the keys asked for in one turn with one read of the distinct keys', async () => {
    const { calls, reads } = recording(['c']);
    const answers = await Promise.all(['a', 'b', 'a', 'c'].map((k) => reads.load(k)));
    expect(answers).toEqual(['v:a', 'v:b', 'v:a', undefined]);
    expect(calls).toEqual([['a', 'b', 'c']]);
  });

  it('reads again for keys asked for in a later turn: nothing is kept', async () => {
    const { calls, reads } = recording();
    expect(await reads.load('a')).toBe('v:a');
    expect(await reads.load('a')).toBe('v:a');
    expect(calls).toEqual([['a'], ['a']]);
  });

  it('gives a read at most maxKeys distinct keys', async () => {
    const { calls, reads } = recording();
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(await Promise.all(keys.map((k) => reads.load(k)))).toEqual(keys.map((k) => `v:${k}`));
    expect(calls).toEqual([['a', 'b', 'c'], ['d', 'e', 'f'], ['g']]);
  });

  it('fails every waiter of a read that fails, and only those', async () => {
    let n = 0;
    const reads = new CoalescedReads<string, string>((keys) => {
      n++;
      if (keys.includes('bad')) throw new Error('connection lost'); // thrown before any promise
      return Promise.resolve(new Map(keys.map((k) => [k, k])));
    }, 2);
    const settled = await Promise.allSettled(['bad', 'x', 'bad', 'y'].map((k) => reads.load(k)));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      'connection lost',
      'connection lost',
      'connection lost',
      'y',
    ]);
    expect(n).toBe(2);
  });

  it('reads after the key was asked for: a change made in the same turn is seen', async () => {
    const data = new Map([['a', 'old']]);
    const reads = new CoalescedReads<string, string>(async (keys) => new Map(keys.map((k) => [k, data.get(k)!])));
    const answer = reads.load('a');
    data.set('a', 'new'); // committed after the request came, before its statement runs
    expect(await answer).toBe('new');
  });

  it('fails every waiter when the read answers something unusable, and leaves none hanging', async () => {
    const reads = new CoalescedReads<string, string>(async () => 'not a map' as never);
    const settled = await Promise.allSettled(['a', 'b', 'a'].map((k) => reads.load(k)));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });
});
