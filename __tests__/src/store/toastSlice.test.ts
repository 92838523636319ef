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

  it('drops the error toast raised since the call for the message its caller shows in place, and nothing else', () => {
    let state = toastReducer(undefined, toastShown('用户名已存在', 'error'));
    state = toastReducer(state, toastShown('保存成功'));
    const since = state.nextId;
    state = toastReducer(state, toastShown('用户名已存在', 'error'));
    state = toastReducer(state, errorShownInPlace({ msg: '用户名已存在', since }));
    expect(state.items).toEqual([
      { id: 1, msg: '用户名已存在', severity: 'error' },
      { id: 2, msg: '保存成功', severity: 'success' },
    ]);
    // a toast raised before the call (another call's), a success with the same words, a message with
    // no toast: each stays
    expect(toastReducer(state, errorShownInPlace({ msg: '用户名已存在', since })).items).toHaveLength(2);
    expect(toastReducer(state, errorShownInPlace({ msg: '保存成功', since: 1 })).items).toHaveLength(2);
    expect(toastReducer(state, errorShownInPlace({ msg: '别的', since: 1 })).items).toHaveLength(2);
  });

  it('keeps an earlier toast of the same words when the call raised none (it was shown once already)', () => {
    // a list refetch failed with 系统繁忙 first; the dialog's call failing the same way adds no toast
    let state = toastReducer(undefined, toastShown('系统繁忙，请稍后再试', 'error'));
    const since = state.nextId;
    state = toastReducer(state, toastShown('系统繁忙，请稍后再试', 'error'));
    state = toastReducer(state, errorShownInPlace({ msg: '系统繁忙，请稍后再试', since }));
    expect(state.items.map((t) => t.id)).toEqual([1]);
  });
});
