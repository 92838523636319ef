import { billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { seedPledgeDemo } from '../../../../server/modules/pledge/pledge.demo';
import { pledgeCounterViolations } from '../../../../server/modules/pledge/pledge.query';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember } from '../deposits/fixtures';

const DAY = 86_400_000;

describe(`pledge demo data (${dbKind})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
    const now = t.clock.now();
    t.clock.set(now - 40 * DAY);
    for (let i = 0; i < 15; i++) await addMember(t);
    t.clock.set(now);
  });
  afterAll(() => t.close());

  it('makes modes, pledges in both states with their releases, settled day by day, all consistent', async () => {
    await seedPledgeDemo(t.app.ctx, { members: 15, pledges: 40, days: 20 });
    const token = await t.login();
    const modes = (await t.call('GET', '/v1/admin/pledge/mode/list', { token })).data.list;
    expect(modes).toHaveLength(4);
    expect(modes.filter((m: any) => m.status === 0)).toHaveLength(1);
    const list = (q: Record<string, unknown>) => t.call('GET', '/v1/admin/pledge/list', { token, query: q });
    const all = await list({});
    expect(all.data.total).toBeGreaterThan(30);
    expect((await list({ status: 1 })).data.total).toBeGreaterThan(0);
    expect((await list({ status: 2 })).data.total).toBeGreaterThan(0);
    expect(all.data.lastRun).toMatchObject({ status: 2 });
    const finished = (await list({ status: 2, size: 1 })).data.list[0];
    const releases = await t.call('GET', '/v1/admin/pledge/release/list', { token, query: { pledgeId: finished.id } });
    expect(releases.data.total).toBe(finished.days);
    expect(releases.data.sum.amount).toBe(finished.totalYield);
    expect(releases.data.sum.principal).toBe(finished.amount);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    expect(await billStatViolations(t.db.db)).toEqual([]);
    expect(await pledgeCounterViolations(t.db.db)).toEqual({ pledges: [], members: [], releases: [] });
  }, 120_000);
});
