import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { axisTick, chartGroups } from '../../../../src/pages/stats/StatCharts';
import StatPage, {
  presetRange,
  rangeError,
  rangeFromParams,
  shanghaiToday,
} from '../../../../src/pages/stats/StatPage';
import type { GetStatApiResponse } from '../../../../src/services/generated/stat';
import { envelope, mockFetch } from '../../mockFetch';
import { makeStore, renderAt } from '../../shellHarness';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/statLayout';
// 2026-11-27 18:00 UTC is already 2026-11-28 02:00 in Shanghai: "today" is the 28th.
const NOW = Date.UTC(2026, 10, 27, 18, 0, 0);
const TODAY = '2026-11-28';

function daysOf(start: string, end: string) {
  const out: string[] = [];
  for (let t = Date.parse(start); t <= Date.parse(end); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** The answer for a range: the figures of the fixture, the first day carrying every series' point. */
function stat(start: string, end: string, zero: boolean): GetStatApiResponse {
  const days = daysOf(start, end);
  const pts = (v: string) => days.map((_, i) => (!zero && i === 0 ? v : i % 2 ? '0.000000' : '0'));
  return {
    start,
    end,
    days,
    figures: [
      { key: 'membersTotal', count: 1024, amount: null, asset: null },
      { key: 'membersNew', count: 2, amount: null, asset: null },
      { key: 'deposits', count: 3, amount: '1234.5', asset: 'USDT' },
      { key: 'withdrawPending', count: 1, amount: '0.123456', asset: 'USDT' },
      { key: 'pledgeActive', count: 4, amount: '12.3456', asset: 'LZ' },
      { key: 'orders', count: 5, amount: '99.9', asset: 'USDT' },
      { key: 'orders', count: 1, amount: '20000', asset: 'LZ' },
      { key: 'energyReleased', count: 7, amount: '0', asset: 'ENERGY' },
    ],
    series: [
      { key: 'membersNew', asset: null, points: pts('2') },
      { key: 'deposits', asset: 'USDT', points: pts('1234.5') },
      { key: 'withdrawPaid', asset: 'USDT', points: pts('10') },
      { key: 'extractPaid', asset: 'LZ', points: pts('1') },
      { key: 'pledgeNew', asset: 'LZ', points: pts('2') },
      { key: 'pledgeIncome', asset: 'LZ', points: pts('0.5') },
      { key: 'orders', asset: null, points: pts('6') },
      { key: 'sales', asset: 'USDT', points: pts('99.9') },
      { key: 'sales', asset: 'LZ', points: pts('20000') },
      { key: 'energyReleased', asset: 'ENERGY', points: pts('0') },
    ],
  };
}

function setup(path = PATH, opts: { zero?: boolean } = {}) {
  const calls: Record<string, string>[] = [];
  mockFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/v1/admin/stat') {
      const q = Object.fromEntries(url.searchParams.entries());
      calls.push(q);
      return envelope(stat(q.start, q.end, opts.zero ?? false));
    }
    return envelope(null, 404, '接口不存在');
  });
  const view = renderAt(<StatPage />, path, makeStore());
  const search = () => new URLSearchParams(view.router.state.location.search);
  return { calls, search, ...view };
}

const card = (title: string) => screen.getByRole('region', { name: title });
const pick = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

beforeEach(() => {
  jest.spyOn(Date, 'now').mockReturnValue(NOW);
});
afterEach(() => jest.restoreAllMocks());

describe('StatPage', () => {
  it('asks for the last 7 Shanghai days by default and shows the figures as sent', async () => {
    const { calls } = setup();
    await screen.findByRole('list', { name: '统计指标' });
    expect(calls).toEqual([{ start: '2026-11-22', end: TODAY }]);
    expect(screen.getByRole('button', { name: '近7天' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('统计区间：2026-11-22 至 2026-11-28（共 7 天，北京时间）')).toBeInTheDocument();

    const total = card('会员总数');
    expect(total).toHaveTextContent('当前');
    expect(total).toHaveTextContent('1,024人');
    expect(card('新增会员')).toHaveTextContent('区间合计');
    expect(card('新增会员')).toHaveTextContent('2人');
    const deposits = card('充值到账');
    expect(within(deposits).getByText('1,234.50 USDT')).toBeInTheDocument();
    expect(within(deposits).getByText('共 3 笔')).toBeInTheDocument();
    expect(deposits).toHaveTextContent('区间合计');
    const pending = card('提现待审核');
    expect(pending).toHaveTextContent('当前');
    expect(within(pending).getByText('0.123456 USDT')).toBeInTheDocument();
    expect(within(card('质押中 LZ')).getByText('12.3456 LZ')).toBeInTheDocument();
    expect(card('质押中 LZ')).toHaveTextContent('当前');
    // A key repeated per asset names its asset.
    expect(within(card('商城订单（USDT）')).getByText('99.90 USDT')).toBeInTheDocument();
    expect(within(card('商城订单（LZ）')).getByText('20,000.0000 LZ')).toBeInTheDocument();
    expect(within(card('能量释放')).getByText('0.00 ENERGY')).toBeInTheDocument();
  });

  it('sends the quick picks’ days, ending today in Shanghai, and keeps the pick in the URL', async () => {
    const { calls, search } = setup();
    await screen.findByRole('list', { name: '统计指标' });
    pick('近30天');
    await waitFor(() => expect(calls.at(-1)).toEqual({ start: '2026-10-30', end: TODAY }));
    expect(search().get('range')).toBe('30d');
    expect(screen.getByRole('button', { name: '近30天' })).toHaveAttribute('aria-pressed', 'true');
    pick('今日');
    await waitFor(() => expect(calls.at(-1)).toEqual({ start: TODAY, end: TODAY }));
    expect(search().get('range')).toBe('today');
    pick('本月');
    await waitFor(() => expect(calls.at(-1)).toEqual({ start: '2026-11-01', end: TODAY }));
    expect(search().get('range')).toBe('month');
  });

  it('reads the range from the URL on load (a reload keeps it)', async () => {
    const { calls } = setup(`${PATH}?range=custom&start=2026-01-01&end=2026-01-31`);
    await screen.findByRole('list', { name: '统计指标' });
    expect(calls).toEqual([{ start: '2026-01-01', end: '2026-01-31' }]);
    expect(screen.getByRole('button', { name: '自定义' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText('开始日期')).toHaveValue('2026-01-01');
    expect(screen.getByLabelText('结束日期')).toHaveValue('2026-01-31');
  });

  it('falls back to 近7天 for a range the URL gets wrong', async () => {
    const { calls } = setup(`${PATH}?range=custom&start=2026-11-28&end=2026-11-01`);
    await screen.findByRole('list', { name: '统计指标' });
    expect(calls).toEqual([{ start: '2026-11-22', end: TODAY }]);
    expect(screen.getByRole('button', { name: '近7天' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('validates a custom range before asking: start after end, over 366 days', async () => {
    const { calls, search } = setup();
    await screen.findByRole('list', { name: '统计指标' });
    pick('自定义');
    const start = screen.getByLabelText('开始日期');
    const end = screen.getByLabelText('结束日期');
    // The days start as the range shown.
    expect(start).toHaveValue('2026-11-22');
    expect(end).toHaveValue(TODAY);

    fireEvent.change(start, { target: { value: '2026-11-28' } });
    fireEvent.change(end, { target: { value: '2026-11-20' } });
    pick('查询');
    expect(screen.getByRole('alert')).toHaveTextContent('开始日期不能晚于结束日期');

    fireEvent.change(start, { target: { value: '2025-01-01' } });
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(end, { target: { value: TODAY } });
    pick('查询');
    expect(screen.getByRole('alert')).toHaveTextContent('统计范围最长 366 天');
    expect(calls).toHaveLength(1);
    expect(search().get('range')).toBeNull();

    fireEvent.change(start, { target: { value: '2026-11-01' } });
    fireEvent.change(end, { target: { value: '2026-11-10' } });
    pick('查询');
    await waitFor(() => expect(calls.at(-1)).toEqual({ start: '2026-11-01', end: '2026-11-10' }));
    expect(Object.fromEntries(search())).toEqual({ range: 'custom', start: '2026-11-01', end: '2026-11-10' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('draws the daily charts from their own chunk, one per group and asset', async () => {
    setup();
    const charts = await screen.findByRole('group', { name: '每日趋势' });
    const titles = within(charts)
      .getAllByRole('region')
      .map((r) => r.getAttribute('aria-label'));
    expect(titles).toEqual([
      '新增会员',
      '充值到账 / 提现打款（USDT）',
      '提取打款 / 新增质押 / 质押收益（LZ）',
      '订单数',
      '销售额（USDT）',
      '销售额（LZ）',
      '能量释放（ENERGY）',
    ]);
    const usdt = screen.getByRole('region', { name: '充值到账 / 提现打款（USDT）' });
    expect(within(usdt).getByText('充值到账')).toBeInTheDocument();
    expect(within(usdt).getByText('提现打款')).toBeInTheDocument();
    expect(screen.queryByText('该区间暂无数据')).toBeNull();
  });

  it('says so when every point of the range is zero, and draws no chart', async () => {
    setup(PATH, { zero: true });
    expect(await screen.findByText('该区间暂无数据')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: '统计指标' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: '每日趋势' })).toBeNull();
    expect(screen.queryByLabelText('图表加载中')).toBeNull();
  });

  it('shows a progress while the first answer is on its way', async () => {
    setup();
    expect(screen.getByRole('progressbar', { name: '加载中' })).toBeInTheDocument();
    await screen.findByRole('list', { name: '统计指标' });
  });
});

describe('stat ranges', () => {
  it('takes today from Shanghai time and builds the quick picks from it', () => {
    expect(shanghaiToday(Date.UTC(2026, 10, 27, 15, 59, 59))).toBe('2026-11-27');
    expect(shanghaiToday(Date.UTC(2026, 10, 27, 16, 0, 0))).toBe('2026-11-28');
    expect(presetRange('7d', '2026-03-02')).toEqual({ start: '2026-02-24', end: '2026-03-02' });
    expect(presetRange('30d', '2026-03-02')).toEqual({ start: '2026-02-01', end: '2026-03-02' });
    expect(presetRange('month', '2026-03-02')).toEqual({ start: '2026-03-01', end: '2026-03-02' });
    expect(presetRange('today', '2026-03-02')).toEqual({ start: '2026-03-02', end: '2026-03-02' });
  });

  it('refuses what the server would', () => {
    expect(rangeFromParams(new URLSearchParams('range=toString'), TODAY)).toEqual({
      key: '7d',
      start: '2026-11-22',
      end: TODAY,
    });
    expect(rangeError({ start: '', end: TODAY })).toBe('请选择开始日期和结束日期');
    expect(rangeError({ start: '2026-02-30', end: TODAY })).toBe('请输入正确的日期');
    expect(rangeError({ start: '2026-11-29', end: TODAY })).toBe('开始日期不能晚于结束日期');
    // 2024 is a leap year: 2024-01-01..2024-12-31 is 366 days, one more is too many.
    expect(rangeError({ start: '2024-01-01', end: '2024-12-31' })).toBeNull();
    expect(rangeError({ start: '2024-01-01', end: '2025-01-01' })).toBe('统计范围最长 366 天');
  });
});

describe('axisTick', () => {
  it('writes big ticks in 万 and 亿 so they fit the axis', () => {
    expect(
      [0, 8500, 9999.5, 10_000, 15_000, 120_000, 123_456, 320_000_000, -25_000, 0.25, 0.0025, 99_999_600].map(axisTick),
    ).toEqual(['0', '8,500', '9,999.5', '1万', '1.5万', '12万', '12.3万', '3.2亿', '-2.5万', '0.25', '0.0025', '1亿']);
  });
});

describe('chartGroups', () => {
  it('groups the series by chart and asset, MM-DD labels, points kept as sent', () => {
    const days = ['2026-11-27', '2026-11-28'];
    const charts = chartGroups(days, [
      { key: 'sales', asset: 'LZ', points: ['1', '2.5'] },
      { key: 'deposits', asset: 'USDT', points: ['1234.567891', '0'] },
      { key: 'membersNew', asset: null, points: ['3', '0'] },
      { key: 'withdrawPaid', asset: 'USDT', points: ['0', '10'] },
      { key: 'sales', asset: 'USDT', points: ['0.1', '0'] },
    ]);
    expect(charts.map((c) => c.title)).toEqual([
      '新增会员',
      '充值到账 / 提现打款（USDT）',
      '销售额（LZ）',
      '销售额（USDT）',
    ]);
    expect(charts[0]).toMatchObject({ asset: null, labels: ['11-27', '11-28'], days });
    expect(charts[0].lines).toEqual([{ key: 'membersNew', label: '新增会员', points: ['3', '0'], values: [3, 0] }]);
    expect(charts[1].lines.map((l) => [l.label, l.points, l.values])).toEqual([
      ['充值到账', ['1234.567891', '0'], [1234.567891, 0]],
      ['提现打款', ['0', '10'], [0, 10]],
    ]);
    expect(charts[2]).toMatchObject({ asset: 'LZ', lines: [{ label: '销售额', values: [1, 2.5] }] });
    expect(chartGroups(days, [])).toEqual([]);
  });
});
