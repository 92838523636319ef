import { useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import TextField from '@mui/material/TextField';
import { Provider } from 'react-redux';
import { FormDialog } from '../../../src/components/FormDialog';
import { MoneyField, moneyRule } from '../../../src/components/MoneyField';
import { useForm } from '../../../src/components/useForm';
import { createAppStore } from '../../../src/store';
import { toastShown } from '../../../src/store/toastSlice';

type Values = { username: string; amount: string; remark: string };

function setup(onSubmit: (values: Values) => Promise<unknown>) {
  const store = createAppStore({ auth: { token: 't', username: 'a' } }, null);
  const closed = jest.fn();
  function Host() {
    const [open, setOpen] = useState(true);
    const form = useForm<Values>(
      { username: '', amount: '', remark: '' },
      {
        username: {
          label: '用户名',
          required: true,
          validate: (v) => (/^[A-Za-z0-9]{4,20}$/.test(v) ? null : '用户名为4-20位字母或数字'),
        },
        amount: { label: '金额', required: true, validate: moneyRule('USDT') },
        remark: { label: '备注' },
      },
    );
    return (
      <FormDialog
        open={open}
        title="新增"
        form={form}
        successText="保存成功"
        onClose={() => {
          closed();
          setOpen(false);
        }}
        onSubmit={() => onSubmit(form.values)}
      >
        <TextField {...form.field('username')} />
        <MoneyField asset="USDT" {...form.field('amount')} />
        <TextField {...form.field('remark')} />
      </FormDialog>
    );
  }
  render(
    <Provider store={store}>
      <Host />
    </Provider>,
  );
  return { store, closed };
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

describe('FormDialog with useForm and MoneyField', () => {
  it('refuses to submit with empty required fields, names them in Chinese and focuses the first', async () => {
    const submit = jest.fn(async () => null);
    setup(submit);
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(screen.getByText('用户名不能为空')).toBeInTheDocument();
    expect(screen.getByText('金额不能为空')).toBeInTheDocument();
    expect(field(/用户名/)).toHaveFocus();
    expect(field(/用户名/)).toHaveAttribute('aria-invalid', 'true');
    expect(field(/备注/)).toHaveAttribute('aria-invalid', 'false');
    expect(submit).not.toHaveBeenCalled();
  });

  it('checks a field when it loses focus and clears the error once fixed', async () => {
    setup(jest.fn());
    await userEvent.type(field(/用户名/), 'ab');
    await userEvent.tab();
    expect(screen.getByText('用户名为4-20位字母或数字')).toBeInTheDocument();
    await userEvent.type(field(/用户名/), 'cd');
    expect(screen.queryByText('用户名为4-20位字母或数字')).not.toBeInTheDocument();
  });

  it('refuses an amount with more places than the asset has, with the Chinese reason', async () => {
    setup(jest.fn());
    await userEvent.type(field(/金额/), '1.1234567');
    await userEvent.tab();
    expect(screen.getByText('金额小数位数过多（最多6位）')).toBeInTheDocument();
    await userEvent.clear(field(/金额/));
    await userEvent.type(field(/金额/), '0');
    await userEvent.tab();
    expect(screen.getByText('金额必须大于0')).toBeInTheDocument();
  });

  it('ignores keystrokes that cannot be part of an amount and keeps the decimal string as typed', async () => {
    const submit = jest.fn(async () => null);
    setup(submit);
    await userEvent.type(field(/金额/), '1a2-3.5e0.1');
    expect(field(/金额/)).toHaveValue('123.501');
    await userEvent.type(field(/用户名/), 'alice{Enter}');
    await waitFor(() => expect(submit).toHaveBeenCalledWith({ username: 'alice', amount: '123.501', remark: '' }));
  });

  it("shows the server's msg in the dialog on failure, not also as a toast, and keeps what was typed", async () => {
    const submit = jest.fn(async () => {
      // what the store does with a refused call (src/store/store.ts): an error toast of its msg
      store.dispatch(toastShown('用户名已存在', 'error'));
      return Promise.reject({ code: 409, msg: '用户名已存在' });
    });
    const { store, closed } = setup(submit);
    await userEvent.type(field(/用户名/), 'alice');
    await userEvent.type(field(/金额/), '10');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('用户名已存在');
    expect(store.getState().toast.items).toEqual([]);
    expect(field(/用户名/)).toHaveValue('alice');
    expect(closed).not.toHaveBeenCalled();
  });

  it('closes and shows the success toast when the server accepts', async () => {
    let finish!: () => void;
    const submit = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { store, closed } = setup(submit);
    await userEvent.type(field(/用户名/), 'alice');
    await userEvent.type(field(/金额/), '10.5');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(screen.getByRole('button', { name: '确定' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(closed).not.toHaveBeenCalled(); // not while the request runs
    finish();
    await waitFor(() => expect(closed).toHaveBeenCalledTimes(1));
    expect(store.getState().toast.items.map((t) => t.msg)).toEqual(['保存成功']);
  });
});
