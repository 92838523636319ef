/**
 * payment/list at scale, in miniature: payment_stat (methods per type and status, moved with every insert
 * and transition) gives the exact total of a type/status filter, and keyset paging gives exactly what
 * OFFSET paging gives, in both orders and under every filter shape.
 */
import type { PaymentType } from '../../../../domain/payments';
import { paymentStatViolations } from '../../../../server/modules/payments/payments.repository';
import { addPaymentMethod } from '../../../../server/modules/payments/payments.service';
import { expectCursorPagingMatchesOffset } from '../../paging';
import { build, dbKind, type TestApp } from '../../helpers';
import { addMember, trc20Address } from '../deposits/fixtures';

jest.setTimeout(120_000);

describe(`payment_stat and keyset paging (${dbKind})`, () => {
  let t: TestApp;
  let token: string;
  let members: number[];
  let uids: string[];
  const list = (query: Record<string, unknown>) => t.call('GET', '/v1/admin/payment/list', { token, query });
  const opt = (body: Record<string, unknown>) => t.call('POST', '/v1/admin/payment/opt', { token, body });

  beforeAll(async () => {
    t = await build();
    token = await t.login();
    members = [await addMember(t), await addMember(t), await addMember(t)];
    uids = [];
    for (const id of members)
      uids.push((await t.db.db.selectFrom('member').select('uid').where('id', '=', id).executeTakeFirstOrThrow()).uid);
    const ids: number[] = [];
    for (let i = 0; i < 45; i++) {
      t.clock.advance(i % 4 === 0 ? 0 : 60_000); // some share a creation time
      const type = ((i % 4) + 1) as PaymentType;
      const { id } = await addPaymentMethod(t.app.ctx, {
        memberId: members[i % 5 === 0 ? 0 : 1 + (i % 2)],
        type,
        holder: '张三',
        account:
          type === 1
            ? `6222${String(100000000 + i)}`
            : type === 4
              ? trc20Address()
              : `acct_${String(i).padStart(3, '0')}`,
        bank: '工商银行',
        qrUrl: '/uploads/qr.png',
      });
      ids.push(id);
    }
    for (const [i, id] of ids.entries()) {
      t.clock.advance(1000);
      if (i % 3 === 0) expect((await opt({ id, action: 'reject', remark: '姓名不符' })).code).toBe(200);
      else if (i % 3 === 1) {
        expect((await opt({ id, action: 'approve' })).code).toBe(200);
        if (i % 4 === 1) expect((await opt({ id, action: 'disable' })).code).toBe(200);
        if (i % 8 === 1) expect((await opt({ id, action: 'enable' })).code).toBe(200);
      }
    }
    // Refused transitions move nothing.
    expect((await opt({ id: ids[0], action: 'approve' })).code).toBe(409);
    expect((await opt({ id: ids[1], action: 'enable' })).code).toBe(409);
  });
  afterAll(() => t.close());

  it('keeps payment_stat equal to the payment methods', async () => {
    expect(await paymentStatViolations(t.db.db)).toEqual([]);
    const stat = await t.db.db.selectFrom('payment_stat').select(['status', 'n']).execute();
    expect(new Set(stat.filter((r) => Number(r.n) > 0).map((r) => r.status))).toEqual(new Set([0, 1, 2, 3]));
  });

  it.each([
    [{}],
    [{ order: 'asc' }],
    [{ sort: 'createdAt' }],
    [{ status: 1 }],
    [{ type: 2, order: 'asc' }],
    [{ type: 1, status: 2 }],
    [{ member: 0 }],
    [{ memberId: 1 }],
    [{ member: 2, status: 0 }],
    [{ keyword: 'phone-prefix' }],
    [{ start: 'mid' }],
  ] as Array<[Record<string, unknown>]>)(
    'pages %j by cursor exactly as by page number, with the exact total',
    async (q0) => {
      const q: Record<string, unknown> = { ...q0 };
      if (q.member !== undefined) {
        q.keyword = uids[q.member as number];
        delete q.member;
      }
      if (q.memberId !== undefined) q.memberId = members[q.memberId as number];
      // A phone prefix every test member shares: several members, their methods sorted after the lookup.
      if (q.keyword === 'phone-prefix') q.keyword = '139';
      if (q.start === 'mid') q.start = String(t.clock.now() - 45 * 60_000);
      const ids = await expectCursorPagingMatchesOffset(list, q, 3);
      // The rows in the database, in the list's order: the total and the pages agree with them.
      const memberIds =
        q0.member !== undefined
          ? [members[q0.member as number]]
          : q0.memberId !== undefined
            ? [members[q0.memberId as number]]
            : undefined;
      const rows = await t.db.db
        .selectFrom('payment_method')
        .select('id')
        .$if(q.type !== undefined, (qb) => qb.where('type', '=', q.type as number))
        .$if(q.status !== undefined, (qb) => qb.where('status', '=', q.status as number))
        .$if(memberIds !== undefined, (qb) => qb.where('member_id', 'in', memberIds!))
        .$if(q.start !== undefined, (qb) => qb.where('created_at', '>=', Number(q.start)))
        .orderBy('id', q.order === 'asc' ? 'asc' : 'desc')
        .execute();
      expect(ids).toEqual(rows.map((r) => Number(r.id)));
    },
  );

  it('refuses a page number past MAX_OFFSET rows without a cursor, and a malformed cursor', async () => {
    expect(await list({ page: 600, size: 20 })).toMatchObject({ code: 400 });
    expect(await list({ page: 600, size: 20, after: '5_5' })).toMatchObject({ code: 200 });
    expect(await list({ before: '1-1' })).toMatchObject({ code: 400 });
  });
});
