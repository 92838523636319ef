import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import SeedListPage, { progressOf } from '../../../../src/pages/seeds/SeedListPage';
import type { ListSeedsApiResponse } from '../../../../src/services/generated/seed';
import { envelope, mockFetch } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

type Seed = ListSeedsApiResponse['list'][number];
type Run = NonNullable<ListSeedsApiResponse['lastRun']>;

const PATH = '/layout/energyLayout/seedLayout';
const T0 = Date.UTC(2026, 10, 20, 2, 30, 0);

function seed(id: number, source: 1 | 2 | 3, status: 1 | 2, released: string, total: string): Seed {
  return {
    id,
    memberId: 100 + id,
    uid: String(10000000 + id),
    phone: '13800000001',
    nickname: `会员${id}`,
    name: `种子${id}`,
    source,
    refId: null,
    totalEnergy: total,
    dailyEnergy: '3.33',
    released,
    days: 3,
    startDay: '2026-11-20',
    endDay: '2026-11-23',
    paidDay: '2026-11-21',
    status,
    createdAt: T0,
    finishedAt: status === 2 ? T0 : null,
  };
}

const RUN: Run = {
  day: '2026-11-21',
  status: 2,
  statusText: '已完成',
  startedAt: T0,
  finishedAt: T0 + 5000,
  pledges: 3,
  pledgeYield: '1.5',
  pledgePrincipal: '0',
  seeds: 2,
  seedEnergy: '6.66',
  matchesCancelled: 0,
  error: '',
};

function setup(lastRun: Run | null = RUN, path = PATH) {
  const calls: Array<{ path: string; query: Record<string, string> }> = [];
  mockFetch(async (request) => {
    const url = new URL(request.url);
    const p = url.pathname.replace('/v1/admin/', '');
    const query = Object.fromEntries(url.searchParams.entries());
    calls.push({ path: p, query });
    if (p === 'user/permissions') return envelope({ codes: ['seed:view'], tree: [] });
    if (p === 'seed/list') {
      const list = [seed(1, 1, 1, '3.33', '10'), seed(2, 2, 2, '2000.6', '2000.6'), seed(3, 3, 1, '0', '0.03')];
      return envelope({
        list,
        total: 3,
        page: 1,
        size: 20,
        next: null,
        prev: null,
        sum: { totalEnergy: '20.03', released: '13.33', count: 3 },
        lastRun,
      });
    }
    if (p === 'seed/release/list') {
      return envelope({
        list: [
          {
            id: 12,
            seedId: 1,
            memberId: 101,
            uid: '10000001',
            phone: '',
            nickname: '',
            day: '2026-11-21',
            amount: '3.33',
            createdAt: T0,
          },
        ],
        total: 1,
        page: 1,
        size: 20,
        next: null,
        prev: null,
        sum: { amount: '3.33', count: 1 },
      });
    }
    return envelope(null, 404, '接口不存在');
  });
  const view = renderAt(<SeedListPage />, path, makeStore());
  return { ...view, of: (p: string) => calls.filter((c) => c.path === p) };
}

const rowOf = (id: number) => document.querySelector(`tr[data-id="${id}"]`) as HTMLElement;

describe('SeedListPage', () => {
  it('computes the progress from the decimal strings', () => {
    expect(progressOf('3.33', '10')).toBe(33);
    expect(progressOf('10', '10')).toBe(100);
    expect(progressOf('0', '0.03')).toBe(0);
  });

  it('lists seeds with source, progress, status and the totals line, and the last run', async () => {
    setup();
    await waitFor(() => expect(rowOf(3)).toBeTruthy());
    for (const h of ['ID', '会员', '种子名称', '来源', '总能量', '每日释放', '释放进度', '状态', '操作']) {
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(rowOf(1)).getByText('商城购买')).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('后台赠送')).toBeInTheDocument();
    expect(within(rowOf(3)).getByText('活动奖励')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('生长中')).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('已成熟')).toBeInTheDocument();
    expect(within(rowOf(1)).getByRole('progressbar', { name: '释放进度 33%' })).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('2,000.60 / 2,000.60（100%）')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('合计总能量：20.03 ENERGY，合计已释放：13.33 ENERGY，共 3 条');
    const run = screen.getByRole('note', { name: '最近结算' });
    expect(within(run).getByText('最近结算：2026-11-21')).toBeInTheDocument();
    expect(within(run).getByText('已完成')).toBeInTheDocument();
    expect(within(run).queryByRole('alert')).toBeNull();
  });

  it('warns when the last run failed, and says so when there was none', async () => {
    const failed = setup({ ...RUN, status: 3, statusText: '失败', finishedAt: null, error: '数据库连接中断' });
    expect(await screen.findByRole('alert')).toHaveTextContent('2026-11-21 的结算失败：数据库连接中断');
    failed.unmount();
    setup({ ...RUN, status: 1, statusText: '未完成（将重试）', finishedAt: null });
    expect(await screen.findByRole('alert')).toHaveTextContent('2026-11-21 的结算未完成（将重试）');
  });

  it('shows that no run happened yet', async () => {
    setup(null);
    expect(await screen.findByText('最近结算：暂无结算记录')).toBeInTheDocument();
  });

  it('keeps the filters in the URL and sends them', async () => {
    const { of } = setup(RUN, `${PATH}?keyword=10000001&source=2&status=1`);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    expect(of('seed/list')[0].query).toMatchObject({ keyword: '10000001', source: '2', status: '1' });
  });

  it('opens a seed’s releases in a drawer', async () => {
    const { of } = setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '释放明细' }));
    const drawer = await screen.findByRole('region', { name: '释放明细' });
    const table = await within(drawer).findByRole('table', { name: '释放明细' });
    expect(within(table).getByText('2026-11-21')).toBeInTheDocument();
    expect(within(table).getByText('3.33')).toBeInTheDocument();
    expect(of('seed/release/list')[0].query).toMatchObject({ seedId: '1', page: '1', size: '20' });
  });
});
