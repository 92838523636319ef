import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatMoneyText, MoneyText } from '../../../src/components/MoneyText';

describe('MoneyText', () => {
  it.each([
    ['12345.67', 'USDT', '12,345.67'],
    ['12345.5', 'USDT', '12,345.50'],
    ['1234567', 'USDT', '1,234,567.00'],
    ['0.000001', 'USDT', '0.000001'], // never hides a significant digit
    ['12.5', 'LZ', '12.5000'],
    ['-1000.25', 'ENERGY', '-1,000.25'],
    ['99999999999.999999', 'USDT', '99,999,999,999.999999'], // beyond a float's precision
  ] as const)('shows %s %s as %s', (value, asset, shown) => {
    render(<MoneyText value={value} asset={asset} />);
    expect(screen.getByText(shown)).toBeInTheDocument();
  });

  it('shows "-" for a missing amount', () => {
    render(<MoneyText value={null} asset="USDT" />);
    expect(screen.getByText('-')).toBeInTheDocument();
  });

  it('puts the exact value with its asset in a tooltip', async () => {
    render(<MoneyText value="1234.567891" asset="USDT" />);
    await userEvent.hover(screen.getByText('1,234.567891'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('1,234.567891 USDT');
  });

  it('colours a signed change: negative red, positive green with a plus, zero plain', () => {
    render(
      <>
        <MoneyText value="-5" asset="USDT" signed />
        <MoneyText value="5" asset="USDT" signed />
        <MoneyText value="0.00" asset="USDT" signed />
      </>,
    );
    expect(screen.getByText('-5.00')).toHaveStyle({ color: 'rgb(211, 47, 47)' });
    expect(screen.getByText('+5.00')).toHaveStyle({ color: 'rgb(46, 125, 50)' });
    expect(screen.getByText('0.00')).not.toHaveStyle({ color: 'rgb(46, 125, 50)' });
  });

  it('formats text for summaries with the asset code', () => {
    expect(formatMoneyText('12345.67', 'USDT', { showAsset: true })).toBe('12,345.67 USDT');
    expect(formatMoneyText('3', 'LZ', { signed: true })).toBe('+3.0000');
  });
});
