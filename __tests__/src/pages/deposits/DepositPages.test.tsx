import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import DepositAccountsPage, { addressError } from '../../../../src/pages/deposits/DepositAccountsPage';
import DepositListPage from '../../../../src/pages/deposits/DepositListPage';
import DepositSettingPage from '../../../../src/pages/deposits/DepositSettingPage';
import { makeStore, renderAt } from '../../shellHarness';
import { ERC, fakeMoneyApi, TRC, type FakeOptions } from '../withdrawals/fakeMoneyApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

/** The texts of a row's 操作 buttons (详情 is on every row; the rest only where the status and the role allow). */
const buttonsOf = (id: number) =>
  within(rowOf(id).querySelector('td[data-field="__actions"]') as HTMLElement)
    .getAllByRole('button')
    .map((b) => b.textContent);
const rowOf = (id: number) => document.querySelector(`tr[data-id="${id}"]`) as HTMLElement;
const toasts = (store: ReturnType<typeof makeStore>) => store.getState().toast.items.map((t) => t.msg);
const dialog = () => screen.getByRole('dialog');

function setup(element: React.ReactElement, path: string, opts: FakeOptions = {}) {
  const api = fakeMoneyApi(opts);
  const view = renderAt(element, path, makeStore());
  return { ...api, ...view };
}

describe('DepositListPage', () => {
  const PATH = '/layout/depositLayout/depositListLayout';

  it('lists deposits with status chips, totals and URL filters', async () => {
    const { of } = setup(<DepositListPage />, `${PATH}?chain=TRC20&status=0`);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    expect(of('deposit/list')[0].query).toMatchObject({ chain: 'TRC20', status: '0', page: '1' });
    for (const h of ['ID', '会员', '链', '金额', '付款地址', '收款地址', '交易哈希', '状态', '提交时间', '操作']) {
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(rowOf(1)).getByText('待确认')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('500.00')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('合计金额：500.00 USDT，共 1 条');
  });

  it('confirms after a confirmation and refreshes; actions only on pending rows', async () => {
    const { of, store } = setup(<DepositListPage />, PATH);
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    await waitFor(() => expect(within(rowOf(1)).getByRole('button', { name: '确认到账' })).toBeInTheDocument());
    expect(buttonsOf(2)).toEqual(['详情']);
    expect(buttonsOf(3)).toEqual(['详情']);
    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '确认到账' }));
    expect(within(dialog()).getByText(/确认该充值 #1（500 USDT，会员 20000001）已到账/)).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('deposit/opt')).toHaveLength(1));
    expect(of('deposit/opt')[0].body).toEqual({ id: 1, action: 'confirm' });
    await waitFor(() => expect(toasts(store)).toContain('确认到账成功'));
    await waitFor(() => expect(within(rowOf(1)).getByText('已到账')).toBeInTheDocument());
  });

  it('opens a deposit in a drawer: addresses and hash whole, copied exactly, and its actions', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { store } = setup(<DepositListPage />, PATH);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    // The list shows the two ends of the address, the whole on hover.
    expect(within(rowOf(1)).getByTitle(TRC)).toHaveTextContent('TLa2f6VP…5wYjU7');
    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '详情' }));
    const drawer = await screen.findByRole('region', { name: '充值详情' });
    expect(within(drawer).getByText(TRC)).toBeInTheDocument();
    expect(within(drawer).getByText('1'.padStart(64, 'b'))).toBeInTheDocument();
    fireEvent.click(within(drawer).getByRole('button', { name: '复制交易哈希' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('1'.padStart(64, 'b')));
    await waitFor(() => expect(toasts(store)).toContain('已复制交易哈希'));
    expect(within(drawer).getByRole('group', { name: '充值操作' })).toHaveTextContent('确认到账');
  });

  it('rejects with a required remark', async () => {
    const u = userEvent.setup();
    const { of } = setup(<DepositListPage />, PATH);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    await waitFor(() => expect(within(rowOf(1)).getByRole('button', { name: '驳回' })).toBeInTheDocument());
    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '驳回' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    expect(await within(dialog()).findByText('请输入驳回原因')).toBeInTheDocument();
    await u.type(within(dialog()).getByRole('textbox', { name: '备注' }), '未查询到交易');
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('deposit/opt')).toHaveLength(1));
    expect(of('deposit/opt')[0].body).toEqual({ id: 1, action: 'reject', remark: '未查询到交易' });
    await waitFor(() => expect(within(rowOf(1)).getByText('已驳回')).toBeInTheDocument());
  });

  it('hides the actions without deposit:audit', async () => {
    setup(<DepositListPage />, PATH, { codes: ['deposit:view'] });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    expect(buttonsOf(1)).toEqual(['详情']);
  });
});

describe('DepositSettingPage', () => {
  const PATH = '/layout/depositLayout/depositSettingLayout';
  const form = () => screen.getByRole('form', { name: '充值设置' });

  it('needs a valid minimum and a chain while open, then saves', async () => {
    const { of, store } = setup(<DepositSettingPage />, PATH);
    await screen.findByRole('form', { name: '充值设置' });
    fireEvent.change(within(form()).getByRole('textbox', { name: /最低充值金额/ }), { target: { value: '0' } });
    fireEvent.click(within(form()).getByRole('checkbox', { name: 'TRC20' }));
    fireEvent.click(within(form()).getByRole('checkbox', { name: 'ERC20' }));
    fireEvent.click(within(form()).getByRole('button', { name: '保存' }));
    expect(await within(form()).findByText('最低充值金额必须大于0')).toBeInTheDocument();
    expect(within(form()).getByText('开放充值时至少选择一条链')).toBeInTheDocument();
    expect(of('deposit/setting').filter((c) => c.method === 'POST')).toHaveLength(0);

    fireEvent.change(within(form()).getByRole('textbox', { name: /最低充值金额/ }), { target: { value: '20.5' } });
    fireEvent.click(within(form()).getByRole('checkbox', { name: 'ERC20' }));
    fireEvent.change(within(form()).getByRole('textbox', { name: /充值提示/ }), { target: { value: '请使用TRC20' } });
    fireEvent.click(within(form()).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(of('deposit/setting').filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(of('deposit/setting').find((c) => c.method === 'POST')!.body).toEqual({
      open: true,
      min: '20.5',
      chains: ['ERC20'],
      tips: '请使用TRC20',
    });
    await waitFor(() => expect(toasts(store)).toContain('保存成功'));
  });

  it('may close deposits with no chain', async () => {
    const { of } = setup(<DepositSettingPage />, PATH);
    await screen.findByRole('form', { name: '充值设置' });
    fireEvent.click(within(form()).getByRole('switch'));
    fireEvent.click(within(form()).getByRole('checkbox', { name: 'TRC20' }));
    fireEvent.click(within(form()).getByRole('checkbox', { name: 'ERC20' }));
    fireEvent.click(within(form()).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(of('deposit/setting').filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(of('deposit/setting').find((c) => c.method === 'POST')!.body).toMatchObject({ open: false, chains: [] });
  });
});

describe('DepositAccountsPage', () => {
  const PATH = '/layout/depositLayout/accountLayout';

  it('checks addresses per chain', () => {
    expect(addressError('TRC20', TRC)).toBeNull();
    expect(addressError('ERC20', ERC)).toBeNull();
    expect(addressError('TRC20', ERC)).toBe('地址格式不正确（TRC20地址以T开头，共34位）');
    expect(addressError('ERC20', TRC)).toBe('地址格式不正确（ERC20地址以0x开头，后跟40位十六进制）');
    expect(addressError('TRC20', `${TRC.slice(0, 33)}0`)).not.toBeNull(); // 0 is not base58
    expect(addressError('ERC20', `${ERC}0`)).not.toBeNull();
  });

  it('creates an address after checking it against the chain', async () => {
    const { of, store } = setup(<DepositAccountsPage />, PATH);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(await screen.findByRole('button', { name: '新增收款地址' }));
    const d = dialog();
    fireEvent.change(within(d).getByRole('textbox', { name: /^地址/ }), { target: { value: ERC } });
    fireEvent.click(within(d).getByRole('button', { name: '确定' }));
    expect(await within(d).findByText('地址格式不正确（TRC20地址以T开头，共34位）')).toBeInTheDocument();
    // Switching the chain checks the typed address again.
    fireEvent.mouseDown(within(d).getByRole('combobox', { name: /链/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'ERC20' }));
    await waitFor(() =>
      expect(within(d).queryByText('地址格式不正确（TRC20地址以T开头，共34位）')).not.toBeInTheDocument(),
    );
    fireEvent.change(within(d).getByRole('textbox', { name: /^备注/ }), { target: { value: '新地址' } });
    fireEvent.click(within(d).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('deposit/account/opt')).toHaveLength(1));
    expect(of('deposit/account/opt')[0].body).toEqual({
      action: 'create',
      chain: 'ERC20',
      address: ERC,
      qrUrl: '',
      status: 1,
      remark: '新地址',
    });
    await waitFor(() => expect(toasts(store)).toContain('新增成功'));
    await waitFor(() => expect(rowOf(3)).toBeTruthy());
  });

  it('edits, disables, enables and deletes behind confirmations', async () => {
    const { of } = setup(<DepositAccountsPage />, PATH);
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    await waitFor(() => expect(within(rowOf(1)).getByRole('button', { name: '停用' })).toBeInTheDocument());
    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '停用' }));
    expect(within(dialog()).getByText(`确认停用收款地址 TRC20 ${TRC}？`)).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('deposit/account/opt')[0]?.body).toEqual({ action: 'disable', id: 1 }));
    await waitFor(() => expect(within(rowOf(1)).getByRole('button', { name: '启用' })).toBeInTheDocument());

    fireEvent.click(within(rowOf(2)).getByRole('button', { name: '删除' }));
    expect(within(dialog()).getByText(/删除后不可恢复/)).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('deposit/account/opt')[1]?.body).toEqual({ action: 'delete', id: 2 }));
    await waitFor(() => expect(rowOf(2)).toBeNull());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '编辑' }));
    const d = dialog();
    expect(within(d).getByRole('textbox', { name: /^地址/ })).toHaveValue(TRC);
    fireEvent.change(within(d).getByRole('textbox', { name: /^备注/ }), { target: { value: '改名' } });
    fireEvent.click(within(d).getByRole('button', { name: '确定' }));
    await waitFor(() =>
      expect(of('deposit/account/opt')[2]?.body).toMatchObject({ action: 'update', id: 1, remark: '改名' }),
    );
  });

  it('shows no actions without depositAccount:opt', async () => {
    setup(<DepositAccountsPage />, PATH, { codes: ['depositAccount:view'] });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    expect(screen.queryByRole('button', { name: '新增收款地址' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: '操作' })).toBeNull();
  });
});
