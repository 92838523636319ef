import { invalidates, LIST, providesList } from '../../../src/services/tags';

describe('module cache tags', () => {
  it('a list provides its LIST tag and any extra tags', () => {
    expect(providesList('Transfer', 'Bill')).toEqual([{ type: 'Transfer', id: LIST }, 'Bill']);
  });

  it('a change invalidates unless the call never got an answer', () => {
    const rule = invalidates(['Member', 'Bill']);
    expect(rule(null, undefined, undefined)).toEqual(['Member', 'Bill']);
    expect(rule(null, { code: 409, msg: '已被他人处理' }, undefined)).toEqual(['Member', 'Bill']);
    expect(rule(null, { code: 0, msg: '请求超时' }, undefined)).toEqual([]);
  });

  it('computes the tags from the argument', () => {
    const rule = invalidates((arg: { type: number }) => [{ type: 'WithdrawSetting', id: arg.type }]);
    expect(rule(null, undefined, { type: 2 })).toEqual([{ type: 'WithdrawSetting', id: 2 }]);
  });
});
