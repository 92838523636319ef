/**
 * The members module's public query API (members.query.ts) and its one write path for member rows
 * (createMembers): what other modules' lists rely on.
 */
import { memberCountViolations } from '../../../../server/modules/members/counts.repository';
import {
  KEYWORD_IDS_MAX,
  keywordMembers,
  memberIdCondition,
  memberIdIn,
  memberIdParts,
  phonePrefixRange,
  type MemberIdShape,
  type MemberIdValues,
} from '../../../../server/modules/members/members.query';
import { ShapedQuery } from '../../../../server/db/shapes';
import type { Db } from '../../../../server/db/dialect';
import { createMembers } from '../../../../server/modules/members/members.service';
import { createZone } from '../../../../server/modules/members/zones.service';
import { build, dbKind, type TestApp } from '../../helpers';

jest.setTimeout(60_000);

describe(`members.query and createMembers (${dbKind})`, () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await build();
  });
  afterEach(() => t.close());

  /** `n` members with phones 1370000xxxx, nicknames 批量<i>, in one batch. */
  const batch = (n: number, extra: { zoneId?: number; status?: number } = {}) =>
    createMembers(
      t.db.db,
      Array.from({ length: n }, (_, i) => ({
        phone: `1370000${String(i).padStart(4, '0')}`,
        nickname: `批量${i}`,
        passwordHash: 'x',
        createdAt: t.clock.now(),
        ...extra,
      })),
    );

  it('writes a batch of members with fresh uids, their accounts, counts and zone count', async () => {
    const zoneId = await createZone(t.db.db, { name: '批量区' }, t.clock.now());
    const made = await batch(5, { zoneId, status: 2 });
    expect(made).toHaveLength(5);
    expect(new Set(made.map((m) => m.uid)).size).toBe(5);
    for (const m of made) expect(m.uid).toMatch(/^[1-9]\d{7}$/);
    const accounts = await t.db.db
      .selectFrom('account')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(
        'member_id',
        'in',
        made.map((m) => m.id),
      )
      .executeTakeFirstOrThrow();
    expect(Number(accounts.n)).toBe(15);
    const zone = await t.db.db
      .selectFrom('zone')
      .select('member_count')
      .where('id', '=', zoneId)
      .executeTakeFirstOrThrow();
    expect(Number(zone.member_count)).toBe(5);
    expect(await memberCountViolations(t.db.db)).toEqual([]);
  });

  it('resolves a keyword to the ids of few members, and to the keyword itself past KEYWORD_IDS_MAX', async () => {
    const made = await batch(KEYWORD_IDS_MAX + 1);
    expect(await keywordMembers(t.db.db, '批量7')).toEqual([made[7].id]);
    expect(await keywordMembers(t.db.db, made[3].uid)).toEqual([made[3].id]);
    expect(await keywordMembers(t.db.db, '1370000001')).toHaveLength(10);
    expect(await keywordMembers(t.db.db, '1370000')).toEqual({ keyword: '1370000' });
    expect(await keywordMembers(t.db.db, '无此人')).toEqual([]);
  });

  it('narrows a list to a keyword’s members by ids, by subquery, or to nothing', async () => {
    const made = await batch(KEYWORD_IDS_MAX + 1);
    // The same condition in a ShapedQuery (compiled once per shape; checked against the ordinary build).
    const shaped = new ShapedQuery(
      (s: MemberIdShape) => s,
      (db, s, v: MemberIdValues) =>
        (db as Db['db'])
          .selectFrom('account as a')
          .select('a.member_id')
          .where(memberIdCondition(db as Db['db'], 'a.member_id', s, v)!)
          .where('a.asset', '=', 'USDT'),
    );
    const sorted = (rows: { member_id: unknown }[]) => rows.map((r) => Number(r.member_id)).sort((a, b) => a - b);
    const ids = async (members: Awaited<ReturnType<typeof keywordMembers>>) => {
      const plain = sorted(
        await t.db.db
          .selectFrom('account as a')
          .select('a.member_id')
          .where(memberIdIn(t.db.db, 'a.member_id', members))
          .where('a.asset', '=', 'USDT')
          .execute(),
      );
      const { shape, values } = memberIdParts(members);
      expect(sorted(await shaped.execute(t.db.db, shape, values))).toEqual(plain);
      return plain;
    };
    expect(await ids([made[0].id])).toEqual([made[0].id]);
    expect(await ids([made[1].id, made[2].id])).toEqual([made[1].id, made[2].id]);
    expect(await ids([made[3].id, made[4].id])).toEqual([made[3].id, made[4].id]);
    expect(await ids([])).toEqual([]);
    expect(await ids({ keyword: '1370000' })).toEqual(made.map((m) => m.id).sort((a, b) => a - b));
    expect(await ids({ keyword: '1370000010' })).toEqual([made[100].id]);
    expect(await ids({ keyword: '批量9' })).toEqual([made[9].id]);
    expect(await ids({ keyword: '99999999' })).toEqual([]);
  });

  it('turns a phone prefix into an index range, open-ended after a run of 9s', () => {
    expect(phonePrefixRange('137')).toEqual({ low: '137', high: '138' });
    expect(phonePrefixRange('1399')).toEqual({ low: '1399', high: '1400' });
    expect(phonePrefixRange('999')).toEqual({ low: '999', high: undefined });
  });
});
