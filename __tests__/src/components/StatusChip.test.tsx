import { render, screen } from '@testing-library/react';
import { StatusChip, type StatusMap } from '../../../src/components/StatusChip';

const map: StatusMap<0 | 1> = { 0: { label: '禁用', color: 'default' }, 1: { label: '启用', color: 'success' } };

describe('StatusChip', () => {
  it('shows the label of the value in its colour', () => {
    render(<StatusChip value={1} map={map} />);
    expect(screen.getByText('启用').closest('.MuiChip-root')).toHaveClass('MuiChip-colorSuccess');
  });

  it('shows an unknown value as is, in the default colour', () => {
    render(<StatusChip value={7 as 0} map={map} />);
    expect(screen.getByText('7').closest('.MuiChip-root')).toHaveClass('MuiChip-colorDefault');
  });

  it('shows "-" for no value', () => {
    render(<StatusChip value={null} map={map} />);
    expect(screen.getByText('-')).toBeInTheDocument();
  });
});
