import { sql } from 'kysely';
import { seedMembersDemo } from '../../../../server/modules/members/members.demo';
import { ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { build, dbKind, type TestApp } from '../../helpers';

// Building an app on PostgreSQL under a busy machine can take more than the default 5 s.
jest.setTimeout(60_000);

describe(`members demo data (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(() => t.close());

  it('makes zones and members through createMember, with counts, leaders, balances and varied states', async () => {
    await seedMembersDemo(t.app.ctx, { zones: 4, members: 120, days: 30 });
    const members = await t.db.db.selectFrom('member').selectAll().execute();
    expect(members).toHaveLength(120);
    expect(new Set(members.map((m) => m.uid)).size).toBe(120);
    expect(members.every((m) => /^[1-9]\d{7}$/.test(m.uid) && /^1[3-9]\d{9}$/.test(m.phone))).toBe(true);
    expect(members.every((m) => /^[\u4e00-\u9fa5]{2,3}$/.test(m.nickname))).toBe(true);
    expect(new Set(members.map((m) => m.level)).size).toBeGreaterThan(3);
    expect(new Set(members.map((m) => m.status))).toEqual(new Set([1, 2, 3]));
    expect(members.filter((m) => m.inviter_id !== null).length).toBeGreaterThan(60);
    const accounts = await t.db.db.selectFrom('account').select('member_id').execute();
    expect(accounts).toHaveLength(360);
    const zones = await t.db.db.selectFrom('zone').selectAll().execute();
    expect(zones).toHaveLength(4);
    const counts = await sql<{
      zone_id: number;
      n: number;
    }>`select zone_id, count(*) as n from member where zone_id is not null group by zone_id`.execute(t.db.db);
    for (const z of zones) {
      expect(Number(z.member_count)).toBe(Number(counts.rows.find((c) => Number(c.zone_id) === Number(z.id))?.n ?? 0));
      if (z.member_count > 0) expect(z.leader_uid).toMatch(/^\d{8}$/);
    }
    const bills = await t.db.db.selectFrom('bill').select(['type']).execute();
    expect(bills.length).toBeGreaterThan(100);
    expect(new Set(bills.map((b) => b.type))).toEqual(new Set([16]));
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    // A second run on a populated database does nothing.
    await seedMembersDemo(t.app.ctx, { zones: 4, members: 120, days: 30 });
    expect(await t.db.db.selectFrom('member').select('id').execute()).toHaveLength(120);
  });
});
