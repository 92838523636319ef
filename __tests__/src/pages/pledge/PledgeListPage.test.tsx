import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import PledgeListPage from '../../../../src/pages/pledge/PledgeListPage';
import { makeStore, renderAt } from '../../shellHarness';
import { fakePledgeApi, RUN, type FakeOptions } from './fakePledgeApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/pledgeLayout/pledgeListLayout';

function setup(opts: FakeOptions = {}, path = PATH) {
  const api = fakePledgeApi(opts);
  const view = renderAt(<PledgeListPage />, path, makeStore());
  return { ...api, ...view };
}

const rowOf = (id: number) => document.querySelector(`tr[data-id="${id}"]`) as HTMLElement;

describe('PledgeListPage', () => {
  it('lists pledges with their terms, rate as a percentage, status, the totals line and the last run', async () => {
    setup();
    await waitFor(() => expect(rowOf(3)).toBeTruthy());
    for (const h of [
      'ID',
      '会员',
      '质押模式',
      '质押数量',
      '日收益率',
      '天数',
      '已释放',
      '开始日期',
      '到期日期',
      '状态',
      '操作',
    ]) {
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(rowOf(3)).getByText('1.23%')).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('0.3%')).toBeInTheDocument();
    expect(within(rowOf(3)).getByText('质押中')).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('已到期')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('合计质押：1,800.0000 LZ，合计已释放：31.9500 LZ，共 3 条');
    const run = screen.getByRole('note', { name: '最近结算' });
    expect(within(run).getByText('最近结算：2026-11-21')).toBeInTheDocument();
    expect(within(run).getByText('已完成')).toBeInTheDocument();
    expect(within(run).queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: '导出' })).toBeInTheDocument();
  });

  it('warns when the last run failed or did not finish, and says when there was none', async () => {
    const failed = setup({
      lastRun: { ...RUN, status: 3, statusText: '失败', finishedAt: null, error: '数据库连接中断' },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('2026-11-21 的结算失败：数据库连接中断');
    failed.unmount();
    const stalled = setup({ lastRun: { ...RUN, status: 1, statusText: '未完成（将重试）', finishedAt: null } });
    expect(await screen.findByRole('alert')).toHaveTextContent('2026-11-21 的结算未完成（将重试）');
    stalled.unmount();
    setup({ lastRun: null });
    expect(await screen.findByText('最近结算：暂无结算记录')).toBeInTheDocument();
  });

  it('keeps the filters in the URL and sends them; hides export without pledge:export', async () => {
    const { of } = setup({ codes: ['pledge:view'] }, `${PATH}?keyword=10000001&modeId=1&status=1`);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    expect(of('pledge/list')[0].query).toMatchObject({ keyword: '10000001', modeId: '1', status: '1' });
    expect(screen.getByRole('textbox', { name: '会员' })).toHaveValue('10000001');
    await waitFor(() => expect(of('user/permissions').length).toBeGreaterThan(0));
    expect(screen.queryByRole('button', { name: '导出' })).toBeNull();
    // Without pledgeMode:view the mode options are not read.
    expect(of('pledge/mode/list')).toHaveLength(0);
  });

  it('opens a pledge’s releases in a drawer, principal on the end day', async () => {
    const { of } = setup();
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    fireEvent.click(within(rowOf(2)).getByRole('button', { name: '释放明细' }));
    const drawer = await screen.findByRole('region', { name: '释放明细' });
    const table = await within(drawer).findByRole('table', { name: '释放明细' });
    expect(within(table).getByText('2026-11-22')).toBeInTheDocument();
    expect(within(table).getAllByText('0.9000')).toHaveLength(2);
    expect(within(table).getByText('300.0000')).toBeInTheDocument();
    expect(within(drawer).getByText(/合计收益：1.8 LZ，赎回本金：300 LZ/)).toBeInTheDocument();
    expect(of('pledge/release/list')[0].query).toMatchObject({ pledgeId: '2', page: '1', size: '20' });
  });
});
