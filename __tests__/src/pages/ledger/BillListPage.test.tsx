import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import BillListPage, { countText, sumText } from '../../../../src/pages/bills/BillListPage';
import { envelope } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';
import { fakeLedgerApi, T0, type Call } from './fakeLedgerApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const bill = (over: Record<string, unknown>) => ({
  id: 1,
  memberId: 7,
  uid: '10000007',
  phone: '13800000007',
  nickname: '张三',
  asset: 'USDT',
  type: 5,
  change: '-101',
  availableAfter: '899',
  frozenChange: '0',
  frozenAfter: '0',
  refKind: 'transfer',
  refId: 3,
  remark: '转账给 10000008',
  createdAt: T0,
  ...over,
});
const TYPES = [
  { type: 5, label: '转账转出' },
  { type: 10, label: '种子释放' },
  { type: 17, label: '能量消耗' },
];

function setup(path: string, page: (c: Call) => Record<string, unknown>, energy = false) {
  const api = fakeLedgerApi({
    codes: ['bill:view', 'change:view'],
    answer: (c) => {
      if (c.path === 'bill/types') return envelope(TYPES);
      if (c.path === 'bill' || c.path === 'change/list') return envelope({ page: 1, size: 20, ...page(c) });
      return undefined;
    },
  });
  return { ...api, ...renderAt(<BillListPage energy={energy} />, path, makeStore()) };
}

describe('BillListPage', () => {
  it('says a capped count and a missing sum honestly', () => {
    expect(countText({ total: 10_000, totalCapped: true })).toBe(
      '共 10,000+ 条（超过 10,000 条时不再计数，可继续翻页；缩小筛选范围可看到总数与合计）',
    );
    expect(countText({ total: 12, totalCapped: false })).toBe('共 12 条');
    expect(sumText({ total: 10_000, totalCapped: true, sum: null })).toBe(
      '合计：结果超过 10,000 条，缩小筛选范围后显示合计',
    );
    expect(
      sumText({
        total: 2,
        totalCapped: false,
        sum: {
          byAsset: [
            { asset: 'LZ', change: '12.5', frozenChange: '0' },
            { asset: 'USDT', change: '-3', frozenChange: '0' },
          ],
        },
      }),
    ).toBe('合计变动：+12.5000 LZ，-3.00 USDT');
  });

  it('lists bills with labels from bill/types, the capped total and no sum', async () => {
    const { of } = setup('/layout/billLayout?type=5&asset=USDT', () => ({
      list: [bill({})],
      total: 10_000,
      totalCapped: true,
      sum: null,
    }));
    expect(await screen.findByRole('cell', { name: '转账转出' })).toBeInTheDocument();
    expect(of('bill')[0].query).toMatchObject({ type: '5', asset: 'USDT', page: '1', size: '20' });
    expect(screen.getByRole('cell', { name: '转账 #3' })).toBeInTheDocument();
    // 关联 opens the record's page, narrowed to it.
    expect(screen.getByRole('link', { name: '转账 #3' })).toHaveAttribute(
      'href',
      `/layout/transferLayout?uid=${bill({}).uid}`,
    );
    expect(await screen.findByText(/共 10,000\+ 条（/)).toBeInTheDocument();
    expect(screen.getByText(/缩小筛选范围后显示合计/)).toBeInTheDocument();
    // One row on screen; the grid does not know the last page of a capped count.
    expect(screen.getByText(/第 1–1 条，共 10,000\+ 条/)).toBeInTheDocument();
  });

  it('pages on past a capped count with the cursor of the page on screen, and back', async () => {
    const u = userEvent.setup();
    const { of } = setup('/layout/billLayout?keyword=10000007', (c) => ({
      list: Array.from({ length: 20 }, (_, i) => bill({ id: (c.query.after ? 100 : 200) - i })),
      total: 10_000,
      totalCapped: true,
      sum: null,
      next: c.query.after ? 'n2' : c.query.before ? 'n1' : `${T0}_181`,
      prev: c.query.after ? `${T0 - 5}_100` : `${T0}_200`,
      page: Number(c.query.page ?? 1),
    }));
    await screen.findAllByRole('cell', { name: '转账转出' });
    await u.click(screen.getByRole('button', { name: /下一页|next page/i }));
    await waitFor(() => expect(of('bill').at(-1)!.query).toMatchObject({ page: '2', after: `${T0}_181` }));
    await screen.findByText(/第 21–40 条，共 10,000\+ 条/);
    await u.click(screen.getByRole('button', { name: /上一页|previous page/i }));
    // Back to page 1: no cursor needed, and the first answer is still in the cache.
    await screen.findByText(/第 1–20 条，共 10,000\+ 条/);
    expect(of('bill').filter((c) => c.query.before)).toEqual([]);
  });

  it('searches by a type chosen from bill/types', async () => {
    const u = userEvent.setup();
    const { of } = setup('/layout/billLayout', () => ({
      list: [bill({})],
      total: 1,
      totalCapped: false,
      sum: { byAsset: [{ asset: 'USDT', change: '-101', frozenChange: '0' }] },
    }));
    await screen.findByRole('cell', { name: '转账转出' });
    expect(await screen.findByText('共 1 条；合计变动：-101.00 USDT')).toBeInTheDocument();
    await u.click(screen.getByRole('combobox', { name: '类型' }));
    await u.click(await screen.findByRole('option', { name: '种子释放' }));
    await u.click(screen.getByRole('button', { name: '搜索' }));
    await waitFor(() => expect(of('bill').at(-1)!.query).toMatchObject({ type: '10' }));
  });

  it('the energy page posts its filters in the body and has no asset filter', async () => {
    const { of } = setup(
      '/layout/energyLayout/changeLayout?type=17&asset=USDT',
      () => ({
        list: [bill({ asset: 'ENERGY', type: 17, change: '-12.5', refKind: '', refId: null })],
        total: 1,
        totalCapped: false,
        sum: { byAsset: [{ asset: 'ENERGY', change: '-12.5', frozenChange: '0' }] },
      }),
      true,
    );
    expect(await screen.findByRole('cell', { name: '能量消耗' })).toBeInTheDocument();
    expect(of('change/list')[0]).toMatchObject({ method: 'POST', body: { type: 17, page: 1, size: 20 } });
    expect(of('change/list')[0].body).not.toHaveProperty('asset');
    expect(of('bill')).toHaveLength(0);
    expect(screen.queryByRole('combobox', { name: '资产' })).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: '能量变动' })).toBeInTheDocument();
    expect(within(screen.getByRole('status')).getByText(/-12.50 ENERGY/)).toBeInTheDocument();
  });
});
