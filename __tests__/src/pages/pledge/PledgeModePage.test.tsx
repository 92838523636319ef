import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import PledgeModePage from '../../../../src/pages/pledge/PledgeModePage';
import { validatePercent } from '../../../../src/pages/pledge/PledgeModeDialog';
import { makeStore, renderAt } from '../../shellHarness';
import { fakePledgeApi, type FakeOptions } from './fakePledgeApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/pledgeLayout/pledgeSettingLayout';

function setup(opts: FakeOptions = {}) {
  const api = fakePledgeApi(opts);
  const view = renderAt(<PledgeModePage />, PATH, makeStore());
  return { ...api, ...view };
}

const rowOf = (id: number) => document.querySelector(`tr[data-id="${id}"]`) as HTMLElement;
const dialog = () => screen.getByRole('dialog');
const box = (name: string) => within(dialog()).getByRole('textbox', { name: new RegExp(`^${name}`) });
const set = (name: string, value: string) => fireEvent.change(box(name), { target: { value } });
const toasts = (store: ReturnType<typeof makeStore>) => store.getState().toast.items.map((t) => t.msg);

describe('PledgeModePage', () => {
  it('checks a percentage rate as the server checks the rate', () => {
    expect(validatePercent('1.23')).toBeNull();
    expect(validatePercent('5')).toBeNull();
    expect(validatePercent('0.0001')).toBeNull();
    expect(validatePercent('0')).toBe('日收益率必须大于0');
    expect(validatePercent('5.0001')).toBe('日收益率不能超过5%');
    expect(validatePercent('12')).toBe('日收益率不能超过5%');
    expect(validatePercent('0.00001')).toBe('日收益率最多4位小数');
    expect(validatePercent('abc')).toBe('日收益率格式不正确');
  });

  it('lists the modes with the rate as a percentage, status and the number in use', async () => {
    setup();
    await waitFor(() => expect(rowOf(2)).toBeTruthy());
    for (const h of ['模式名称', '天数', '日收益率', '最低金额', '最高金额', '状态', '排序', '使用中', '操作']) {
      expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    }
    expect(within(rowOf(1)).getByText('1.23%')).toBeInTheDocument();
    expect(within(rowOf(1)).getByText('启用')).toBeInTheDocument();
    expect(within(rowOf(2)).getByText('停用')).toBeInTheDocument();
    const buttons = (id: number) =>
      within(rowOf(id))
        .queryAllByRole('button')
        .map((b) => b.textContent);
    await waitFor(() => expect(buttons(1)).toEqual(['编辑', '停用']));
    expect(buttons(2)).toEqual(['编辑', '启用']);
  });

  it('creates a mode: per-field messages first, then the rate sent as a decimal', async () => {
    const { of, store } = setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(await screen.findByRole('button', { name: '新增' }));
    expect(within(dialog()).getByText('新增质押模式')).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    expect(await within(dialog()).findByText('模式名称不能为空')).toBeInTheDocument();
    expect(within(dialog()).getByText('天数不能为空')).toBeInTheDocument();
    set('模式名称', '进阶90天');
    set('天数', '0');
    set('日收益率', '6');
    set('最低金额', '100.12345');
    set('最高金额', '50');
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    expect(await within(dialog()).findByText('天数为1-3650的整数')).toBeInTheDocument();
    expect(within(dialog()).getByText('日收益率不能超过5%')).toBeInTheDocument();
    expect(within(dialog()).getByText('最低金额小数位数过多（最多4位）')).toBeInTheDocument();
    set('天数', '90');
    set('日收益率', '0.85');
    set('最低金额', '1000');
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    expect(await within(dialog()).findByText('最高金额不能低于最低金额')).toBeInTheDocument();
    expect(of('pledge/mode/update')).toHaveLength(0);
    set('最高金额', '500000');
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('pledge/mode/update')).toHaveLength(1));
    expect(of('pledge/mode/update')[0].body).toEqual({
      name: '进阶90天',
      days: 90,
      rate: '0.0085',
      minAmount: '1000',
      maxAmount: '500000',
      status: 1,
      sort: 0,
    });
    await waitFor(() => expect(toasts(store)).toContain('新增成功'));
    await waitFor(() => expect(rowOf(3)).toBeTruthy());
    expect(within(rowOf(3)).getByText('0.85%')).toBeInTheDocument();
  });

  it('edits a mode with its values filled in, and shows the server’s refusal in the dialog', async () => {
    const { of } = setup({ override: { 'pledge/mode/update': { code: 400, msg: '模式名称已存在' } } });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(await within(rowOf(1)).findByRole('button', { name: '编辑' }));
    expect(box('模式名称')).toHaveValue('稳健30天');
    expect(box('日收益率')).toHaveValue('1.23');
    expect(box('最低金额')).toHaveValue('100');
    set('模式名称', '旧版15天');
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    expect(await within(dialog()).findByText('模式名称已存在')).toBeInTheDocument();
    expect(of('pledge/mode/update')[0].body).toMatchObject({ id: 1, name: '旧版15天', rate: '0.0123', days: 30 });
  });

  it('disables a mode in use after a confirmation, through the same update', async () => {
    const { of, store } = setup();
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    fireEvent.click(await within(rowOf(1)).findByRole('button', { name: '停用' }));
    expect(within(dialog()).getByText(/确认停用质押模式「稳健30天」？.*已有的 2 笔质押照常释放/)).toBeInTheDocument();
    fireEvent.click(within(dialog()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(of('pledge/mode/update')).toHaveLength(1));
    expect(of('pledge/mode/update')[0].body).toEqual({
      id: 1,
      name: '稳健30天',
      days: 30,
      rate: '0.0123',
      minAmount: '100',
      maxAmount: '100000',
      sort: 1,
      status: 0,
    });
    await waitFor(() => expect(toasts(store)).toContain('已停用'));
    await waitFor(() => expect(within(rowOf(1)).getByText('停用')).toBeInTheDocument());
  });

  it('offers no changes without pledgeMode:update', async () => {
    setup({ codes: ['pledgeMode:view'] });
    await waitFor(() => expect(rowOf(1)).toBeTruthy());
    await waitFor(() => expect(screen.queryByRole('button', { name: '新增' })).toBeNull());
    expect(within(rowOf(1)).queryAllByRole('button')).toHaveLength(0);
  });
});
