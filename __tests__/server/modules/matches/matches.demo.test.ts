import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { billStatViolations, ledgerViolations } from '../../../../server/modules/ledger/ledger.service';
import { matchStatViolations } from '../../../../server/modules/matches/matches.repository';
import { seedMatchesDemo } from '../../../../server/modules/matches/matches.demo';
import { seedPaymentsTransfersDemo } from '../../../../server/modules/payments/payments.demo';
import { seedSeedsDemo } from '../../../../server/modules/seeds/seeds.demo';
import { seedCounterViolations } from '../../../../server/modules/seeds/seeds.query';
import { build, dbKind, type TestApp } from '../../helpers';

jest.setTimeout(120_000);

describe(`seed and match demo data (${dbKind})`, () => {
  let t: TestApp;
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-match-demo-'));
  beforeAll(async () => {
    t = await build({ config: { uploadDir } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(uploadDir, { recursive: true, force: true });
  });

  it('makes seeds of every source and matches in every status through the services, once', async () => {
    await seedPaymentsTransfersDemo(t.app.ctx);
    await seedSeedsDemo(t.app.ctx, { seeds: 30, days: 20 });
    await seedMatchesDemo(t.app.ctx, { matches: 40, days: 10 });
    const sources = await t.db.db.selectFrom('seed').select('source').distinct().execute();
    expect(sources.map((s) => s.source).sort()).toEqual([1, 2, 3]);
    const statuses = await t.db.db.selectFrom('match_trade').select('status').distinct().execute();
    expect(statuses.map((s) => s.status).sort()).toEqual([1, 2, 3, 4, 5]);
    const appealed = await t.db.db.selectFrom('match_trade').selectAll().where('status', '=', 5).execute();
    expect(appealed.every((m) => m.appeal_reason !== '' && m.appeal_by > 0)).toBe(true);
    const proofs = await t.db.db.selectFrom('match_trade').select('proof_url').where('proof_url', '<>', '').execute();
    expect(proofs.length).toBeGreaterThan(0);
    for (const { proof_url } of proofs) {
      const file = path.join(uploadDir, proof_url.replace(/^\/uploads\//, ''));
      expect(fs.readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    }
    const arbitrated = await t.db.db
      .selectFrom('op_log')
      .select('id')
      .where('permission_code', '=', 'match:opt')
      .execute();
    expect(arbitrated.length).toBeGreaterThan(0);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
    expect(await billStatViolations(t.db.db)).toEqual([]);
    expect(await matchStatViolations(t.db.db)).toEqual([]);
    expect(await seedCounterViolations(t.db.db)).toEqual({ seeds: [], members: [], releases: [] });
    const n = (await t.db.db.selectFrom('match_trade').select('id').execute()).length;
    await seedSeedsDemo(t.app.ctx);
    await seedMatchesDemo(t.app.ctx);
    expect(await t.db.db.selectFrom('match_trade').select('id').execute()).toHaveLength(n);
  });
});
