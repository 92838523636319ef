import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useConfirm, type Confirm } from '../../../src/components/useConfirm';

function setup() {
  const ref: { confirm: Confirm | null } = { confirm: null };
  function Asker() {
    const [confirm, dialog] = useConfirm();
    ref.confirm = confirm;
    return dialog;
  }
  const view = render(<Asker />);
  const ask = <T,>(fn: (c: Confirm) => Promise<T>) => {
    let result!: Promise<T>;
    act(() => {
      result = fn(ref.confirm as Confirm);
    });
    return result;
  };
  return { ask, view };
}

describe('useConfirm', () => {
  it('shows the title, the question and the default buttons, and resolves true on 确定', async () => {
    const { ask } = setup();
    const result = ask((c) => c({ content: '确认删除该管理员？' }));
    const dialog = await screen.findByRole('dialog', { name: '温馨提示' });
    expect(dialog).toHaveAccessibleDescription('确认删除该管理员？');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await expect(result).resolves.toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('resolves false on 取消 and on Escape', async () => {
    const { ask } = setup();
    const first = ask((c) => c({ title: '删除', content: '确认？', cancelText: '再想想' }));
    await userEvent.click(await screen.findByRole('button', { name: '再想想' }));
    await expect(first).resolves.toBe(false);
    const second = ask((c) => c({ content: '确认？' }));
    await screen.findByRole('dialog');
    await userEvent.keyboard('{Escape}');
    await expect(second).resolves.toBe(false);
  });

  it('focuses the confirm button so Enter confirms', async () => {
    const { ask } = setup();
    const result = ask((c) => c({ content: '确认启用？', confirmText: '启用' }));
    await waitFor(() => expect(screen.getByRole('button', { name: '启用' })).toHaveFocus());
    await userEvent.keyboard('{Enter}');
    await expect(result).resolves.toBe(true);
  });

  it('paints a dangerous confirm button red and starts on 取消, so an Enter does not confirm it', async () => {
    const { ask } = setup();
    const result = ask((c) => c({ content: '确认删除？', danger: true }));
    expect(await screen.findByRole('button', { name: '确定' })).toHaveClass('MuiButton-colorError');
    await waitFor(() => expect(screen.getByRole('button', { name: '取消' })).toHaveFocus());
    await userEvent.keyboard('{Enter}');
    await expect(result).resolves.toBe(false);
  });

  it('refuses an empty required remark and resolves with the trimmed text', async () => {
    const { ask } = setup();
    let settled = false;
    const result = ask((c) => c({ content: '确认驳回该提现？', remark: { label: '驳回原因' } }));
    void result.then(() => (settled = true));
    const field = await screen.findByRole('textbox', { name: /驳回原因/ });
    await waitFor(() => expect(field).toHaveFocus());
    await userEvent.type(field, '   ');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(screen.getByText('请输入驳回原因', { selector: 'p' })).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(settled).toBe(false);
    await userEvent.type(field, ' 地址错误 ');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await expect(result).resolves.toBe('地址错误');
  });

  it('keeps the dialog and the typed remark when it holds a control character the server refuses', async () => {
    const { ask } = setup();
    let settled = false;
    const result = ask((c) => c({ content: '确认驳回该提现？', remark: { label: '驳回原因' } }));
    void result.then(() => (settled = true));
    const field = await screen.findByRole('textbox', { name: /驳回原因/ });
    // A pasted control character (typed ones do not reach a textarea); line breaks are fine.
    await userEvent.click(field);
    await userEvent.paste('地址\n错误\u0007');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    expect(screen.getByText('驳回原因不能包含控制字符', { selector: 'p' })).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveValue('地址\n错误\u0007');
    expect(settled).toBe(false);
    await userEvent.type(field, '{Backspace}');
    await userEvent.click(screen.getByRole('button', { name: '确定' }));
    await expect(result).resolves.toBe('地址\n错误');
  });

  it('resolves null when a remark question is cancelled, and starts the next one empty', async () => {
    const { ask } = setup();
    const first = ask((c) => c({ content: '确认驳回？', remark: {} }));
    await userEvent.type(await screen.findByRole('textbox'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: '取消' }));
    await expect(first).resolves.toBeNull();
    ask((c) => c({ content: '确认驳回？', remark: {} }));
    expect(await screen.findByRole('textbox')).toHaveValue('');
  });

  it('accepts an empty remark when it is optional', async () => {
    const { ask } = setup();
    const result = ask((c) => c({ content: '确认通过？', remark: { required: false, label: '备注' } }));
    await userEvent.click(await screen.findByRole('button', { name: '确定' }));
    await expect(result).resolves.toBe('');
  });

  it('cancels a pending question when the asker unmounts', async () => {
    const { ask, view } = setup();
    const result = ask((c) => c({ content: '确认？' }));
    await screen.findByRole('dialog');
    view.unmount();
    await expect(result).resolves.toBe(false);
  });
});
