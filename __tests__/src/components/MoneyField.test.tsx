import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { acceptsTyping, MoneyField, validateMoney } from '../../../src/components/MoneyField';

describe('validateMoney', () => {
  it.each([
    ['12.5', 'USDT', null],
    ['0.000001', 'USDT', null],
    ['0.0000001', 'USDT', '金额小数位数过多（最多6位）'],
    ['1.001', 'ENERGY', '金额小数位数过多（最多2位）'],
    ['1.00', 'ENERGY', null], // trailing zeros are not extra places
    ['', 'USDT', '金额不能为空'],
    ['abc', 'LZ', '金额格式不正确'],
    ['0', 'LZ', '金额必须大于0'],
    ['-1', 'LZ', '金额不能为负数'],
    // the ceiling named, in the server's words (domain/money.ts moneyRefusal)
    ['100000000000000000', 'ENERGY', '金额不能超过1000000000000'],
    ['100000000.000001', 'USDT', '金额不能超过100000000'],
  ] as const)('%s %s → %s', (value, asset, error) => expect(validateMoney(value, asset)).toBe(error));

  it('names the field and honours allowNegative/allowZero', () => {
    expect(validateMoney('-5', 'USDT', '调整金额', { allowNegative: true })).toBeNull();
    // as the server words it (memberOpt.service.ts): a signed amount is refused only for being zero
    expect(validateMoney('-0', 'USDT', '调整金额', { allowNegative: true })).toBe('调整金额不能为0');
    expect(validateMoney('0', 'USDT', '金额')).toBe('金额必须大于0');
    expect(validateMoney('0', 'USDT', '手续费', { allowZero: true })).toBeNull();
    expect(validateMoney('x', 'USDT', '手续费')).toBe('手续费格式不正确');
  });
});

describe('acceptsTyping', () => {
  it('lets through a leading minus, digits and one point (the validation refuses what may not be negative)', () => {
    expect(acceptsTyping('12.')).toBe(true);
    expect(acceptsTyping('.5')).toBe(true);
    expect(acceptsTyping('1.2.3')).toBe(false);
    expect(acceptsTyping('-1')).toBe(true);
    expect(acceptsTyping('1-')).toBe(false);
    expect(acceptsTyping('1e5')).toBe(false);
  });
});

describe('MoneyField', () => {
  function Host({ allowNegative = false }: { allowNegative?: boolean }) {
    const [value, setValue] = useState('');
    return (
      <MoneyField
        label="金额"
        asset="LZ"
        value={value}
        allowNegative={allowNegative}
        onChange={(e) => setValue(e.target.value)}
      />
    );
  }

  it('shows the asset code and turns full-width digits into ASCII', async () => {
    render(<Host />);
    expect(screen.getByText('LZ')).toBeInTheDocument();
    const input = screen.getByRole('textbox', { name: '金额' });
    expect(input).toHaveAttribute('inputmode', 'decimal');
    await userEvent.type(input, '１２。５');
    expect(input).toHaveValue('12.5');
  });

  it('keeps a leading minus as typed, for adjustments and for the validation to refuse elsewhere', async () => {
    render(<Host allowNegative />);
    const input = screen.getByRole('textbox', { name: '金额' });
    await userEvent.type(input, '-3.25');
    expect(input).toHaveValue('-3.25');
  });

  it('never turns a negative amount into a positive one by dropping its minus', async () => {
    render(<Host />);
    const input = screen.getByRole('textbox', { name: '金额' });
    await userEvent.type(input, '-3.5');
    expect(input).toHaveValue('-3.5');
    expect(validateMoney('-3.5', 'LZ', '价格')).toBe('价格不能为负数');
  });
});
