/**
 * member_count (members per zone, level and status) stays equal to the member table through every
 * path that makes members or moves them, and member/list takes its totals from it.
 */
import { memberCountViolations, rebuildMemberCounts } from '../../../../server/modules/members/counts.repository';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember } from '../deposits/fixtures';
import { makeMember, makeZone } from './fixtures';

jest.setTimeout(60_000);

describe(`member counts (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let zoneA: number;
  let zoneB: number;
  const list = (query: Record<string, unknown> = {}) =>
    t.call('GET', '/v1/admin/member/list', { token, query: { size: 1, ...query } });
  const opt = (body: Record<string, unknown>) => t.call('POST', '/v1/admin/member/opt', { token, body });

  /** The member table grouped by (zone, level, status), and member_count as stored. */
  async function grouped() {
    const actual = await t.db.db
      .selectFrom('member')
      .select((eb) => [
        eb.fn.coalesce('zone_id', eb.lit(0)).as('zone_id'),
        'level',
        'status',
        eb.fn.countAll<number>().as('n'),
      ])
      .groupBy([(eb) => eb.fn.coalesce('zone_id', eb.lit(0)), 'level', 'status'])
      .execute();
    const counted = await t.db.db
      .selectFrom('member_count')
      .select(['zone_id', 'level', 'status', 'n'])
      .where('n', '>', 0)
      .execute();
    const norm = (rows: Array<{ zone_id: unknown; level: unknown; status: unknown; n: unknown }>) =>
      rows.map((r) => `${Number(r.zone_id)}/${Number(r.level)}/${Number(r.status)}=${Number(r.n)}`).sort();
    return { actual: norm(actual), counted: norm(counted) };
  }

  async function expectConsistent() {
    const { actual, counted } = await grouped();
    expect(counted).toEqual(actual);
    expect(await memberCountViolations(t.db.db)).toEqual([]);
  }

  beforeAll(async () => {
    t = await build();
    token = await t.login();
    zoneA = await makeZone(t, '计数专区A');
    zoneB = await makeZone(t, '计数专区B');
  });
  afterAll(() => t.close());

  it('counts members made by createMember, member/create and the test fixture', async () => {
    await expectConsistent();
    await makeMember(t);
    await makeMember(t, { zoneId: zoneA, level: 2 });
    await makeMember(t, { zoneId: zoneA, level: 2, status: 2 });
    await makeMember(t, { zoneId: zoneB, level: 5, status: 3 });
    const r = await t.call('POST', '/v1/admin/member/create', {
      token,
      body: { phone: '13600000001', password: 'abc12345', nickname: '计数', zoneId: zoneB },
    });
    expect(r.code).toBe(200);
    await addMember(t);
    await addMember(t, { status: 2 });
    // A refused creation (phone taken) counts nothing.
    const dup = await t.call('POST', '/v1/admin/member/create', {
      token,
      body: { phone: '13600000001', password: 'abc12345', nickname: '重复' },
    });
    expect(dup.code).toBe(400);
    await expectConsistent();
  });

  it('moves the count with every zone, level and status change, and not with a refused one', async () => {
    const a = await makeMember(t);
    const b = await makeMember(t, { zoneId: zoneA, level: 1 });
    const steps: Array<[Record<string, unknown>, number]> = [
      [{ id: a.id, action: 'setZone', zoneId: zoneA }, 200],
      [{ id: a.id, action: 'setZone', zoneId: zoneB }, 200],
      [{ id: a.id, action: 'setZone', zoneId: zoneB }, 409],
      [{ id: a.id, action: 'setLevel', level: 3 }, 200],
      [{ id: a.id, action: 'setLevel', level: 3 }, 409],
      [{ id: a.id, action: 'freeze' }, 200],
      [{ id: a.id, action: 'freeze' }, 409],
      [{ id: a.id, action: 'unfreeze' }, 200],
      [{ id: a.id, action: 'banWithdraw' }, 200],
      [{ id: a.id, action: 'banWithdraw' }, 409],
      [{ id: a.id, action: 'freeze' }, 200],
      [{ id: a.id, action: 'unfreeze' }, 200],
      [{ id: b.id, action: 'setLevel', level: 0 }, 200],
      [{ id: b.id, action: 'banWithdraw' }, 200],
      [{ id: b.id, action: 'setZone', zoneId: zoneB }, 200],
      [{ id: b.id, action: 'unfreeze' }, 200],
      [{ id: b.id, action: 'resetPassword', password: 'xyz12345' }, 200],
    ];
    for (const [body, code] of steps) {
      const r = await opt(body);
      expect({ body, code: r.code }).toEqual({ body, code });
      await expectConsistent();
    }
  });

  it('gives member/list the exact total for every zone/level/status filter, and with other filters', async () => {
    const members = await t.db.db.selectFrom('member').select(['zone_id', 'level', 'status']).execute();
    const expected = (f: { zoneId?: number; level?: number; status?: number }) =>
      members.filter(
        (m) =>
          (f.zoneId === undefined || Number(m.zone_id) === f.zoneId) &&
          (f.level === undefined || m.level === f.level) &&
          (f.status === undefined || m.status === f.status),
      ).length;
    for (const zoneId of [undefined, zoneA, zoneB])
      for (const level of [undefined, 0, 2, 3, 5])
        for (const status of [undefined, 1, 2, 3]) {
          const f = Object.fromEntries(
            Object.entries({ zoneId, level, status }).filter(([, v]) => v !== undefined),
          ) as { zoneId?: number; level?: number; status?: number };
          const r = await list(f);
          expect({ f, total: r.data.total }).toEqual({ f, total: expected(f) });
        }
    expect((await list()).data.total).toBe(members.length);
    // Filters member_count cannot answer fall back to counting the rows.
    expect((await list({ keyword: '13600000001' })).data.total).toBe(1);
    expect((await list({ keyword: '13600000001', zoneId: zoneA })).data.total).toBe(0);
    expect((await list({ start: '2000-01-01', end: '2000-01-02' })).data.total).toBe(0);
  });

  it('rebuilds the counts from the member table (bulk loads)', async () => {
    await t.db.db.deleteFrom('member_count').execute();
    expect((await memberCountViolations(t.db.db)).length).toBeGreaterThan(0);
    await rebuildMemberCounts(t.db.db);
    await expectConsistent();
  });
});
