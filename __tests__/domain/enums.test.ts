import { defineEnum, defineTransitions, type EnumValue } from '../../domain/enums';

const Status = defineEnum('状态', {
  pending: [0, '待审核', 'warning'],
  approved: [1, '已通过', 'success'],
  rejected: [2, '已驳回', 'error'],
});
type Status = EnumValue<typeof Status>;

describe('defineEnum', () => {
  it('gives the named values, the values in order, labels, the chip map and the description', () => {
    const s: Status = Status.is.approved;
    expect(s).toBe(1);
    expect(Status.values).toEqual([0, 1, 2]);
    expect(Status.label(2)).toBe('已驳回');
    expect(Status.label(9)).toBe('9');
    expect(Status.map[0]).toEqual({ label: '待审核', color: 'warning' });
    expect(Status.title).toBe('状态');
    expect(Status.description).toBe('0 待审核, 1 已通过, 2 已驳回');
  });

  it('lists the values in ascending order, the description in declaration order', () => {
    const Switch = defineEnum('状态', { on: [1, '启用', 'success'], off: [0, '停用', 'default'] });
    expect(Switch.values).toEqual([0, 1]);
    expect(Switch.description).toBe('1 启用, 0 停用');
  });
});

describe('defineTransitions', () => {
  const Actions = defineTransitions(Status, {
    approve: { label: '通过', from: [0], to: 1 },
    reject: { label: '驳回', from: [0, 1], to: 2 },
  });

  it('keeps each action with its source states and target', () => {
    expect(Actions.reject).toEqual({ label: '驳回', from: [0, 1], to: 2 });
  });

  it('offers an action only in its source states, in declaration order', () => {
    expect(Actions.actionsIn(0)).toEqual(['approve', 'reject']);
    expect(Actions.actionsIn(1)).toEqual(['reject']);
    expect(Actions.actionsIn(2)).toEqual([]);
    expect(Actions.allows('approve', 1)).toBe(false);
  });
});
