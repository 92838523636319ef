import toastReducer, { errorShownInPlace, toastClosed, toastShown } from '../../../src/store/toastSlice';

describe('toastSlice', () => {
  it('starts empty', () => {
    expect(toastReducer(undefined, { type: '@@init' })).toEqual({ items: [], nextId: 1 });
  });

  it('queues messages with increasing ids; success is the default severity', () => {
    let state = toastReducer(undefined, toastShown('保存成功'));
    state = toastReducer(state, toastShown('系统繁忙，请稍后再试', 'error'));
    expect(state.items).toEqual([
      { id: 1, msg: '保存成功', severity: 'success' },
      { id: 2, msg: '系统繁忙，请稍后再试', severity: 'error' },
    ]);
    expect(state.nextId).toBe(3);
  });

  it('shows the same message twice in a row once', () => {
    let state = toastReducer(undefined, toastShown('请求失败，请稍后重试！', 'error'));
    state = toastReducer(state, toastShown('请求失败，请稍后重试！', 'error'));
    expect(state.items).toHaveLength(1);
    state = toastReducer(state, toastShown('请求失败，请稍后重试！', 'warning'));
    expect(state.items).toHaveLength(2);
  });

  it('removes a closed toast by id', () => {
    let state = toastReducer(undefined, toastShown('一'));
    state = toastReducer(state, toastShown('二'));
    state = toastReducer(state, toastClosed(1));
    expect(state.items.map((t) => t.msg)).toEqual(['二']);
    expect(toastReducer(state, toastClosed(99)).items).toHaveLength(1);
  });

  it('drops the latest error toast of a message its caller shows in place, and nothing else', () => {
    let state = toastReducer(undefined, toastShown('用户名已存在', 'error'));
    state = toastReducer(state, toastShown('保存成功'));
    state = toastReducer(state, toastShown('用户名已存在', 'error'));
    state = toastReducer(state, errorShownInPlace('用户名已存在'));
    expect(state.items).toEqual([
      { id: 1, msg: '用户名已存在', severity: 'error' },
      { id: 2, msg: '保存成功', severity: 'success' },
    ]);
    // a success with the same words, or a message with no toast, stays as it is
    expect(toastReducer(state, errorShownInPlace('保存成功')).items).toHaveLength(2);
    expect(toastReducer(state, errorShownInPlace('别的')).items).toHaveLength(2);
  });
});
