/** The whole demo data set, as a new database gets it at first start (server/seed/demo.ts). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dayOf } from '../../../server/db/dayBuckets';
import { seedDemoData } from '../../../server/seed/demo';
import { ledgerViolations } from '../../../server/modules/ledger/ledger.service';
import { build, dbKind, PG_URL, type TestApp } from '../helpers';

jest.setTimeout(300_000);

// On SQLite only: the order of the demo's steps does not depend on the database, and the whole set takes
// ~60 s on PostgreSQL against ~15 s here.
(PG_URL ? describe.skip : describe)(`demo data (${dbKind})`, () => {
  let t: TestApp;
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lz-demo-'));
  beforeAll(async () => {
    t = await build({ config: { uploadDir } });
    await seedDemoData(t.app.ctx);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(uploadDir, { recursive: true, force: true });
  });

  it('releases every growing seed through the last settled day, those the mall granted too', async () => {
    const last = await t.db.db
      .selectFrom('settlement_run')
      .select((eb) => eb.fn.max('day').as('day'))
      .executeTakeFirstOrThrow();
    expect(Number(last.day)).toBe(dayOf(t.clock.now()) - 1); // the past days settled, yesterday last
    const behind = await t.db.db
      .selectFrom('seed')
      .select(['id', 'source', 'start_day', 'paid_day'])
      .where('status', '=', 1)
      .where('start_day', '<', Number(last.day))
      .where('paid_day', '<', Number(last.day))
      .execute();
    expect(behind).toEqual([]);
    // The mall's seeds (those with an order) bought before yesterday have released energy.
    const fromMall = await t.db.db
      .selectFrom('seed')
      .select(['released'])
      .where('source', '=', 1)
      .where('ref_id', 'is not', null)
      .where('start_day', '<', Number(last.day))
      .execute();
    expect(fromMall.length).toBeGreaterThan(0);
    expect(fromMall.filter((s) => BigInt(s.released) === 0n)).toEqual([]);
    expect(await ledgerViolations(t.db.db)).toEqual([]);
  });
});
