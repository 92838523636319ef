import { render, screen } from '@testing-library/react';
import type { CellParams } from '../../../src/components/table/columnTypes';
import {
  actionsColumn,
  fileLinkColumn,
  formatTimeValue,
  memberColumn,
  moneyColumn,
  statusColumn,
  timeColumn,
} from '../../../src/components/columns';

type Row = { id: number; asset: 'USDT' | 'LZ'; change: string; status: number; createdAt: number };
const row: Row = { id: 1, asset: 'LZ', change: '-12.5', status: 1, createdAt: Date.UTC(2026, 10, 22, 16, 30, 5) };
const cell = (value: unknown): CellParams<Row> => ({ row, value, field: 'f' });

describe('column builders', () => {
  it('formats epoch ms in Asia/Shanghai', () => {
    const col = timeColumn<Row>('createdAt', '创建时间');
    const format = col.valueFormatter as unknown as (v: unknown) => string;
    expect(format(row.createdAt)).toBe('2026-11-23 00:30:05');
    expect(format(String(row.createdAt))).toBe('2026-11-23 00:30:05');
    expect(format(null)).toBe('');
    expect(formatTimeValue('soon')).toBe('');
    expect(col.headerName).toBe('创建时间');
  });

  it("renders an amount with the row's asset places and sign colour", () => {
    const col = moneyColumn<Row>('change', '变动', (r) => r.asset, { signed: true, sortable: true });
    expect(col.align).toBe('right');
    expect(col.sortable).toBe(true);
    render(<>{col.renderCell?.(cell(row.change))}</>);
    expect(screen.getByText('-12.5000')).toHaveStyle({ color: 'rgb(211, 47, 47)' });
  });

  it('renders a status through its map', () => {
    const col = statusColumn<Row, 0 | 1>('status', '状态', {
      0: { label: '禁用', color: 'default' },
      1: { label: '启用', color: 'success' },
    });
    render(<>{col.renderCell?.(cell(1))}</>);
    expect(screen.getByText('启用')).toBeInTheDocument();
  });

  it('renders the 会员 column as uid over nickname, or over phone without one', () => {
    type M = { id: number; uid: string; nickname?: string; phone?: string };
    const col = memberColumn<M>({ width: 150 });
    expect(col).toMatchObject({ field: 'uid', headerName: '会员', width: 150 });
    const at = (r: M): CellParams<M> => ({ row: r, value: r.uid, field: 'uid' });
    render(<>{col.renderCell?.(at({ id: 1, uid: '12345678', nickname: '张三', phone: '13800000000' }))}</>);
    expect(screen.getByText('12345678')).toBeInTheDocument();
    expect(screen.getByText('张三')).toBeInTheDocument();
    render(<>{col.renderCell?.(at({ id: 2, uid: '87654321', nickname: '', phone: '13900000000' }))}</>);
    expect(screen.getByText('13900000000')).toBeInTheDocument();
  });

  it('renders an uploaded file as a 查看 link in a new tab, or - without one', () => {
    const col = fileLinkColumn<Row>('proofUrl', '凭证');
    expect(col).toMatchObject({ field: 'proofUrl', headerName: '凭证', sortable: false });
    render(<>{col.renderCell?.(cell('/uploads/p.png'))}</>);
    expect(screen.getByRole('link', { name: '查看' })).toHaveAttribute('href', '/uploads/p.png');
    expect(screen.getByRole('link', { name: '查看' })).toHaveAttribute('target', '_blank');
    render(<>{col.renderCell?.(cell(''))}</>);
    expect(screen.getByText('-')).toBeInTheDocument();
  });

  it('renders the row actions in an unsortable 操作 column, pinned right and never hidden', () => {
    const col = actionsColumn<Row>((r) => <button>编辑{r.id}</button>);
    expect(col.headerName).toBe('操作');
    expect(col.sortable).toBe(false);
    expect(col).toMatchObject({ pin: 'right', hideable: false });
    render(<>{col.renderCell?.(cell(null))}</>);
    expect(screen.getByRole('button', { name: '编辑1' })).toBeInTheDocument();
  });
});
