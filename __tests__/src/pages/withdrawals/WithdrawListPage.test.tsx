import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import WithdrawListPage from '../../../../src/pages/withdrawals/WithdrawListPage';
import { makeStore, renderAt } from '../../shellHarness';
import { fakeMoneyApi, TRC, type FakeOptions } from './fakeMoneyApi';

jest.setTimeout(60_000);
// The machine is shared: give the grid time to render.
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/withdrawLayout/withdrawListLayout';

function setup(opts: FakeOptions = {}, path = PATH, type: 1 | 2 = 1) {
  const api = fakeMoneyApi(opts);
  const view = renderAt(<WithdrawListPage type={type} />, path, makeStore());
  return { ...api, ...view };
}

const actionsOf = (id: number) => rowOf(id).querySelector('td[data-field="__actions"]') as HTMLElement;
const rowOf = (id: number) => document.querySelector(`tr[data-id="${id}"]`) as HTMLElement;
const toasts = (store: ReturnType<typeof makeStore>) => store.getState().toast.items.map((t) => t.msg);
const dialog = () => screen.getByRole('dialog');

describe('WithdrawListPage', () => {
  it('lists withdrawals with amount, fee and actual per asset, status chips and the totals line', async () => {
    const { of } = setup();
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    for (const h of [
      'ID',
      '会员',
      '金额',
      '手续费',
      '实际到账',
      '链',
      '地址',
      '状态',
      '交易哈希',
      '申请时间',
      '操作',
    ]) {
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    const r2 = rowOf(2);
    expect(within(r2).getByText('250.50')).toBeInTheDocument();
    expect(within(r2).getByText('249.50')).toBeInTheDocument();
    expect(within(r2).getByText('待打款')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('待审核')).toBeInTheDocument();
    expect(within(rowOf(3)).getByText('已完成')).toBeInTheDocument();
    expect(within(rowOf(4)).getByText('已驳回')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('合计金额：1,440.50 USDT，合计手续费：5.00 USDT，共 5 条');
    expect(of('withdraw/list')[0].query).toMatchObject({ type: '1', page: '1', size: '20' });
    // Only the type's rows: the extract #6 is not on this page.
    expect(rowOf(6)).toBeNull();
  });

  it('opens a request in a drawer with its address whole and the actions its status allows', async () => {
    setup();
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    fireEvent.click(within(rowOf(2)).getByRole('button', { name: '详情' }));
    const drawer = await screen.findByRole('region', { name: '提现详情' });
    expect(within(drawer).getByText(TRC)).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: '复制地址' })).toBeInTheDocument();
    expect(within(drawer).getByRole('group', { name: '提现操作' })).toHaveTextContent('打款驳回');
    expect(within(drawer).getByText('admin')).toBeInTheDocument();
  });

  it('exports the filters of the list (not its page, cursor or sort) as CSV, with the type', async () => {
    const u = userEvent.setup();
    URL.createObjectURL = jest.fn(() => 'blob:x');
    URL.revokeObjectURL = jest.fn();
    const { of } = setup({}, `${PATH}?status=0&page=2&after=5_5&sort=amount&order=asc`);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    await u.click(screen.getByRole('button', { name: '导出' }));
    await u.click(await screen.findByRole('menuitem', { name: '导出 CSV' }));
    await waitFor(() => expect(of('withdraw/export')).toHaveLength(1));
    expect(of('withdraw/export')[0].query).toEqual({ status: '0', type: '1', format: 'csv' });
  });

  it('closes the drawer when an action takes the request off a status-filtered list', async () => {
    setup({}, `${PATH}?status=0`);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '详情' }));
    const drawer = await screen.findByRole('region', { name: '提现详情' });
    fireEvent.click(within(drawer).getByRole('button', { name: '通过' }));
    const confirm = await screen.findByText(/确认审核通过该提现 #1/);
    fireEvent.click(within(confirm.closest('[role="dialog"]') as HTMLElement).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(rowOf(1)).toBeNull());
    await waitFor(() => expect(screen.queryByRole('region', { name: '提现详情' })).toBeNull());
  });

  it('shows per row only the actions its status allows', async () => {
    setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    // The 操作 cell's buttons besides 详情 (which every row has).
    const names = (id: number) =>
      within(actionsOf(id))
        .queryAllByRole('button')
        .map((b) => b.textContent)
        .filter((t) => t !== '详情');
    expect(names(1)).toEqual(['通过', '驳回']);
    expect(names(2)).toEqual(['打款', '驳回']);
    expect(names(3)).toEqual([]);
    expect(names(4)).toEqual([]);
  });

  it('hides actions and selection without the type’s codes, and shows pay alone with pay only', async () => {
    setup({ codes: ['withdraw:view', 'withdraw:pay', 'extract:audit'] });
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    await waitFor(() => expect(within(rowOf(2)).getByRole('button', { name: '打款' })).toBeInTheDocument());
    expect(
      within(actionsOf(1))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['详情']);
    expect(screen.queryByRole('button', { name: /批量通过/ })).toBeNull();
    expect(screen.getByRole('button', { name: /批量打款/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '导出' })).toBeNull();
  });

  it('keeps the filters in the URL and sends them; a status chip filters at once', async () => {
    const { of, router } = setup({}, `${PATH}?keyword=10000001&status=0`);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    expect(of('withdraw/list')[0].query).toMatchObject({ keyword: '10000001', status: '0', type: '1' });
    expect(screen.getByRole('textbox', { name: '会员' })).toHaveValue('10000001');
    fireEvent.click(within(screen.getByRole('group', { name: '状态筛选' })).getByText('待打款'));
    await waitFor(() => expect(router.state.location.search).toContain('status=1'));
    await waitFor(() => expect(of('withdraw/list').at(-1)!.query).toMatchObject({ status: '1', keyword: '10000001' }));
  });

  it('approves after a confirmation, toasts and refreshes the list', async () => {
    const { of, store } = setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '通过' }));
    expect(within(dialog()).getByText(/确认审核通过该提现 #1（100 USDT，会员 10000001）/)).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(of('withdraw/opt')).toHaveLength(0);

    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '通过' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('withdraw/opt')).toHaveLength(1));
    expect(of('withdraw/opt')[0].body).toEqual({ id: 1, action: 'approve' });
    await waitFor(() => expect(toasts(store)).toContain('审核通过成功'));
    await waitFor(() => expect(within(rowOf(1)).getByText('待打款')).toBeInTheDocument());
    expect(of('withdraw/list').length).toBeGreaterThanOrEqual(2);
  });

  it('asks for the transaction hash to mark paid, checked against the chain', async () => {
    const u = userEvent.setup();
    const { of, store } = setup();
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    fireEvent.click(within(rowOf(2)).getByRole('button', { name: '打款' }));
    const d = dialog();
    expect(within(d).getByText(/确认已向会员地址打款/)).toBeInTheDocument();
    fireEvent.click(within(d).getByRole('button', { name: '确定' }));
    expect(await within(d).findByText('交易哈希不能为空')).toBeInTheDocument();
    await u.type(within(d).getByRole('textbox', { name: '交易哈希' }), 'abc');
    fireEvent.click(within(d).getByRole('button', { name: '确定' }));
    expect(await within(d).findByText('交易哈希格式不正确（TRC20为64位十六进制）')).toBeInTheDocument();
    expect(of('withdraw/opt')).toHaveLength(0);
    const hash = 'c'.repeat(64);
    fireEvent.change(within(d).getByRole('textbox', { name: '交易哈希' }), { target: { value: hash } });
    fireEvent.click(within(d).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('withdraw/opt')).toHaveLength(1));
    // While it closes it still says what it was for (never "选中的 0 条记录").
    expect(within(d).queryByText(/选中的 0 条/)).toBeNull();
    expect(of('withdraw/opt')[0].body).toEqual({ id: 2, action: 'paid', txHash: hash });
    await waitFor(() => expect(toasts(store)).toContain('确认打款成功'));
    await waitFor(() => expect(within(rowOf(2)).getByText('已完成')).toBeInTheDocument());
  });

  it('rejects only with a remark, and shows a conflict as an error toast', async () => {
    const u = userEvent.setup();
    const { of, store } = setup({ override: { 'withdraw/opt': { code: 409, msg: '该提现已处理' } } });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '驳回' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    expect(await within(dialog()).findByText('请输入驳回原因')).toBeInTheDocument();
    await u.type(within(dialog()).getByRole('textbox', { name: '备注' }), '地址有风险');
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('withdraw/opt')).toHaveLength(1));
    expect(of('withdraw/opt')[0].body).toEqual({ id: 1, action: 'reject', remark: '地址有风险' });
    await waitFor(() => expect(toasts(store)).toContain('该提现已处理'));
  });

  it('approves a selection in one batch and shows the result per record', async () => {
    const { of } = setup({ batchFailures: { 5: '该提现已处理' } });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    const batch = screen.getByRole('button', { name: /批量通过/ });
    expect(batch).toBeDisabled();
    fireEvent.click(within(rowOf(1)).getByRole('checkbox'));
    fireEvent.click(within(rowOf(5)).getByRole('checkbox'));
    await waitFor(() => expect(screen.getByRole('button', { name: '批量通过（2）' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: '批量通过（2）' }));
    expect(within(dialog()).getByText('确认审核通过选中的 2 条提现？')).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('withdraw/opt/batch')).toHaveLength(1));
    expect(of('withdraw/opt/batch')[0].body).toEqual({ ids: [1, 5], action: 'approve' });
    const result = await screen.findByRole('dialog', { name: '批量通过结果' });
    expect(within(result).getByText('成功 1 条，失败 1 条')).toBeInTheDocument();
    const failures = within(result).getByRole('list', { name: '失败明细' });
    expect(within(failures).getByText('#5')).toBeInTheDocument();
    expect(within(failures).getByText('该提现已处理')).toBeInTheDocument();
    fireEvent.click(within(result).getByRole('button', { name: '知道了' }));
    // The selection is cleared after a batch.
    await waitFor(() => expect(screen.getByRole('button', { name: '批量通过' })).toBeDisabled());
  });

  it('rejects a selection with one remark', async () => {
    const u = userEvent.setup();
    const { of } = setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(within(rowOf(1)).getByRole('checkbox'));
    fireEvent.click(within(rowOf(2)).getByRole('checkbox'));
    fireEvent.click(await screen.findByRole('button', { name: '批量驳回（2）' }));
    await u.type(within(dialog()).getByRole('textbox', { name: '备注' }), '批量驳回原因');
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('withdraw/opt/batch')).toHaveLength(1));
    expect(of('withdraw/opt/batch')[0].body).toEqual({ ids: [1, 2], action: 'reject', remark: '批量驳回原因' });
    expect(await screen.findByText('成功 2 条，失败 0 条')).toBeInTheDocument();
  });

  it('pays a selection with an optional shared hash', async () => {
    const { of } = setup();
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    fireEvent.click(within(rowOf(2)).getByRole('checkbox'));
    fireEvent.click(within(rowOf(1)).getByRole('checkbox'));
    fireEvent.click(await screen.findByRole('button', { name: '批量打款（2）' }));
    expect(within(dialog()).getByText(/确认已为选中的 2 条记录打款/)).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('withdraw/opt/batch')).toHaveLength(1));
    expect(of('withdraw/opt/batch')[0].body).toEqual({ ids: [2, 1], action: 'paid' });
    const result = await screen.findByRole('dialog', { name: '批量打款结果' });
    expect(within(result).getByText('成功 1 条，失败 1 条')).toBeInTheDocument();
  });

  it('is the extract page with type 2: LZ amounts and the extract codes', async () => {
    const { of } = setup({ codes: ['extract:view', 'extract:audit'] }, '/layout/withdrawLayout/extractListLayout', 2);
    await waitFor(() => expect(rowOf(6)).toBeTruthy());
    expect(of('withdraw/list')[0].query).toMatchObject({ type: '2' });
    expect(screen.getByRole('table', { name: '提取列表' })).toBeInTheDocument();
    expect(within(rowOf(6)).getByText('500.0000')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(6)).getByRole('button', { name: '通过' })).toBeInTheDocument());
    fireEvent.click(within(rowOf(6)).getByRole('button', { name: '通过' }));
    expect(within(dialog()).getByText(/确认审核通过该提取 #6（500 LZ/)).toBeInTheDocument();
  });
});
