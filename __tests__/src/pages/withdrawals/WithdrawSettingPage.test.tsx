import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import WithdrawSettingPage from '../../../../src/pages/withdrawals/WithdrawSettingPage';
import { percentToRate, rateToPercent } from '../../../../domain/money';
import { feeRateError, openHoursError, timesError } from '../../../../src/pages/withdrawals/withdrawRules';
import { makeStore, renderAt } from '../../shellHarness';
import { ERC, fakeMoneyApi, TRC, type FakeOptions } from './fakeMoneyApi';

jest.setTimeout(60_000);
configure({ asyncUtilTimeout: 8000 });

const PATH = '/layout/withdrawLayout/withdrawSettingLayout';

function setup(opts: FakeOptions = {}, path = PATH) {
  const api = fakeMoneyApi(opts);
  const view = renderAt(<WithdrawSettingPage />, path, makeStore());
  return { ...api, ...view };
}

const rules = () => screen.getByRole('form', { name: /规则/ });
const wallet = () => screen.getByRole('form', { name: /出款钱包/ });
const box = (form: HTMLElement, name: string) => within(form).getByRole('textbox', { name: new RegExp(`^${name}`) });
const set = (form: HTMLElement, name: string, value: string) =>
  fireEvent.change(box(form, name), { target: { value } });
const toasts = (store: ReturnType<typeof makeStore>) => store.getState().toast.items.map((t) => t.msg);

describe('WithdrawSettingPage', () => {
  it('checks fee rates, open hours and daily times as the server does', () => {
    // A percentage, kept by the server as the fraction with the same digits.
    expect(feeRateError('1')).toBeNull();
    expect(feeRateError('0')).toBeNull();
    expect(feeRateError('99.9999')).toBeNull();
    expect(feeRateError('100')).toBe('手续费率必须小于100%');
    expect(feeRateError('0.00001')).toBe('手续费率小数位数过多（最多4位）');
    expect(feeRateError('-0.1')).toBe('手续费率不能为负数');
    expect(feeRateError('abc')).toBe('手续费率格式不正确');
    expect([rateToPercent('0.015'), rateToPercent('0.123456'), rateToPercent('0')]).toEqual(['1.5', '12.3456', '0']);
    expect([percentToRate('1.5'), percentToRate('12.3456'), percentToRate('90')]).toEqual(['0.015', '0.123456', '0.9']);
    expect(openHoursError('09:00-18:00')).toBeNull();
    expect(openHoursError('22:00-06:00')).toBeNull();
    expect(openHoursError('00:00-24:00')).toBeNull();
    expect(openHoursError('9:00-18:00')).toMatch(/开放时间格式不正确/);
    expect(openHoursError('09:00-09:00')).toMatch(/开放时间格式不正确/);
    expect(openHoursError('25:00-26:00')).toMatch(/开放时间格式不正确/);
    expect(timesError('0')).toBeNull();
    expect(timesError('1001')).toBe('每日次数须为0到1000的整数');
    expect(timesError('1.5')).toBe('每日次数须为0到1000的整数');
  });

  it('shows the 提现 settings first and the 提取 settings in the other tab (tab in the URL)', async () => {
    const { of, router } = setup();
    expect(await screen.findByRole('form', { name: '提现规则' })).toBeInTheDocument();
    expect(box(rules(), '单笔最低金额')).toHaveValue('10');
    expect(box(rules(), '手续费率')).toHaveValue('1');
    expect(of('withdraw/setting')[0].query).toEqual({ type: '1' });
    fireEvent.click(screen.getByRole('tab', { name: '提取' }));
    expect(await screen.findByRole('form', { name: '提取规则' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?type=2');
    expect(box(rules(), '单笔最低金额')).toHaveValue('100');
    expect(within(rules()).getAllByText('LZ').length).toBeGreaterThan(0);
  });

  it('refuses every wrong field before sending, naming it', async () => {
    const { of } = setup();
    await screen.findByRole('form', { name: '提现规则' });
    set(rules(), '单笔最低金额', '10.1234567');
    set(rules(), '单笔最高金额', '5');
    set(rules(), '每日次数', '-1');
    set(rules(), '手续费率', '150');
    set(rules(), '最低手续费', '');
    set(rules(), '自动审核额度', '1.0000001');
    set(rules(), '开放时间', '9点到18点');
    fireEvent.click(within(rules()).getByRole('button', { name: '保存提现设置' }));
    expect(await within(rules()).findByText('单笔最低金额小数位数过多（最多6位）')).toBeInTheDocument();
    expect(within(rules()).getByText('每日次数须为0到1000的整数')).toBeInTheDocument();
    expect(within(rules()).getByText('手续费率必须小于100%')).toBeInTheDocument();
    expect(within(rules()).getByText('最低手续费不能为空')).toBeInTheDocument();
    expect(within(rules()).getByText('自动审核额度小数位数过多（最多6位）')).toBeInTheDocument();
    expect(within(rules()).getByText('开放时间格式不正确，例如 09:00-18:00')).toBeInTheDocument();
    set(rules(), '单笔最低金额', '10');
    fireEvent.click(within(rules()).getByRole('button', { name: '保存提现设置' }));
    expect(await within(rules()).findByText('单笔最高金额不能低于单笔最低金额')).toBeInTheDocument();
    expect(of('withdraw/setting').filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('saves the rules with the switch and shows the server’s refusal', async () => {
    const { of, store } = setup();
    await screen.findByRole('form', { name: '提现规则' });
    fireEvent.click(within(rules()).getByRole('switch'));
    set(rules(), '单笔最高金额', '0');
    set(rules(), '开放时间', '09:00-18:00');
    set(rules(), '自动审核额度', '100');
    fireEvent.click(within(rules()).getByRole('button', { name: '保存提现设置' }));
    await waitFor(() => expect(of('withdraw/setting').filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(of('withdraw/setting').find((c) => c.method === 'POST')!.body).toEqual({
      type: 1,
      open: false,
      min: '10',
      max: '0',
      maxTimesPerDay: 3,
      feeRate: '0.01',
      feeMin: '1',
      autoApproveMax: '100',
      openHours: '09:00-18:00',
    });
    await waitFor(() => expect(toasts(store)).toContain('保存成功'));
    expect(await screen.findByText(/最后修改：2026-11-20 10:30:01 admin/)).toBeInTheDocument();
  });

  it('asks before saving a fee rate above 10 %, and sends the fraction', async () => {
    const { of } = setup();
    await screen.findByRole('form', { name: '提现规则' });
    set(rules(), '手续费率', '90');
    fireEvent.click(within(rules()).getByRole('button', { name: '保存提现设置' }));
    const ask = await screen.findByRole('dialog');
    expect(ask).toHaveTextContent('手续费率 90% 高于 10%，每笔提现将扣除较多手续费。确认保存？');
    fireEvent.click(within(ask).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(of('withdraw/setting').filter((c) => c.method === 'POST')).toHaveLength(0);
    set(rules(), '手续费率', '2.5');
    fireEvent.click(within(rules()).getByRole('button', { name: '保存提现设置' }));
    await waitFor(() => expect(of('withdraw/setting').filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(of('withdraw/setting').find((c) => c.method === 'POST')!.body).toMatchObject({ feeRate: '0.025' });
  });

  it('checks the payout wallet address per chain and saves it', async () => {
    const { of } = setup();
    await screen.findByRole('form', { name: '提现出款钱包' });
    set(wallet(), '钱包地址', ERC);
    fireEvent.click(within(wallet()).getByRole('button', { name: '保存出款钱包' }));
    expect(await within(wallet()).findByText('地址格式不正确（TRC20地址以T开头，共34位）')).toBeInTheDocument();
    set(wallet(), '钱包地址', TRC);
    set(wallet(), '备注', '冷钱包');
    fireEvent.click(within(wallet()).getByRole('button', { name: '保存出款钱包' }));
    await waitFor(() => expect(of('withdraw/account')).toHaveLength(1));
    expect(of('withdraw/account')[0].body).toEqual({ type: 1, chain: 'TRC20', address: TRC, remark: '冷钱包' });
  });

  it('shows a server refusal above the form', async () => {
    setup({ override: { 'withdraw/account': { code: 400, msg: '地址格式不正确' } } });
    await screen.findByRole('form', { name: '提现出款钱包' });
    set(wallet(), '钱包地址', TRC);
    fireEvent.click(within(wallet()).getByRole('button', { name: '保存出款钱包' }));
    expect(await within(wallet()).findByRole('alert')).toHaveTextContent('地址格式不正确');
  });

  it('is read-only without withdrawSetting:update', async () => {
    setup({ codes: ['withdrawSetting:view'] });
    await screen.findByRole('form', { name: '提现规则' });
    await waitFor(() => expect(box(rules(), '单笔最低金额')).toBeDisabled());
    expect(within(rules()).queryByRole('button', { name: '保存提现设置' })).toBeNull();
    expect(within(wallet()).queryByRole('button', { name: '保存出款钱包' })).toBeNull();
  });
});
