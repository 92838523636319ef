import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { EnumSelect, enumOptions } from '../../../src/components/EnumSelect';
import { useAction, type RunAction } from '../../../src/components/useAction';
import { createAppStore } from '../../../src/store';

function setup() {
  const store = createAppStore(undefined, null);
  const ref: { run: RunAction | null } = { run: null };
  function Actor() {
    const [run, dialog] = useAction();
    ref.run = run;
    return dialog;
  }
  render(
    <Provider store={store}>
      <Actor />
    </Provider>,
  );
  const start = <T,>(fn: (run: RunAction) => Promise<T>) => {
    let result!: Promise<T>;
    act(() => {
      result = fn(ref.run as RunAction);
    });
    return result;
  };
  const toasts = () => store.getState().toast.items.map((t) => [t.msg, t.severity]);
  return { start, toasts };
}

describe('useAction', () => {
  it('asks, calls with the remark and toasts the success', async () => {
    const { start, toasts } = setup();
    const call = jest.fn(async (remark: string | undefined) => `done ${remark}`);
    const result = start((run) =>
      run({ confirm: { content: '确认驳回？', remark: {} }, call, success: (r) => `${r}!` }),
    );
    await userEvent.type(await screen.findByRole('textbox'), '地址错误');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await expect(result).resolves.toEqual({ result: 'done 地址错误' });
    expect(call).toHaveBeenCalledWith('地址错误');
    expect(toasts()).toEqual([['done 地址错误!', 'success']]);
  });

  it('does not call on a cancel', async () => {
    const { start, toasts } = setup();
    const call = jest.fn(async () => 1);
    const result = start((run) => run({ confirm: { content: '确认？' }, call, success: '成功' }));
    await userEvent.click(await screen.findByRole('button', { name: '取消' }));
    await expect(result).resolves.toBeNull();
    expect(call).not.toHaveBeenCalled();
    expect(toasts()).toEqual([]);
  });

  it('leaves an API refusal to the store and rethrows anything else', async () => {
    const { start, toasts } = setup();
    await expect(
      start((run) => run({ call: () => Promise.reject({ code: 409, msg: '已处理' }), success: 'x' })),
    ).resolves.toBeNull();
    expect(toasts()).toEqual([]);
    await expect(start((run) => run({ call: () => Promise.reject(new TypeError('bug')) }))).rejects.toThrow('bug');
  });
});

describe('EnumSelect', () => {
  it('takes a labelled enum, plain values or options', () => {
    expect(enumOptions({ values: [1, 2], label: (v) => (v === 1 ? '正常' : '冻结') })).toEqual([
      { value: 1, label: '正常' },
      { value: 2, label: '冻结' },
    ]);
    expect(enumOptions(['TRC20', 'ERC20'])).toEqual([
      { value: 'TRC20', label: 'TRC20' },
      { value: 'ERC20', label: 'ERC20' },
    ]);
  });

  it('lists the empty item first and the labels', async () => {
    render(
      <EnumSelect
        label="状态"
        empty="全部"
        options={[
          { value: 1, label: '正常' },
          { value: 2, label: '停用', disabled: true },
        ]}
        value=""
        onChange={() => {}}
      />,
    );
    await userEvent.click(screen.getByRole('combobox', { name: '状态' }));
    const items = screen.getAllByRole('option');
    expect(items.map((o) => o.textContent)).toEqual(['全部', '正常', '停用']);
    expect(items[2]).toHaveAttribute('aria-disabled', 'true');
  });
});
