import loadingReducer, { requestFinished, requestStarted } from '../../../src/store/loadingSlice';

describe('loadingSlice', () => {
  it('starts at zero', () => {
    expect(loadingReducer(undefined, { type: '@@init' })).toEqual({ count: 0 });
  });

  it('counts pending requests up and down', () => {
    let state = loadingReducer(undefined, requestStarted());
    state = loadingReducer(state, requestStarted());
    expect(state.count).toBe(2);
    state = loadingReducer(state, requestFinished());
    expect(state.count).toBe(1);
    state = loadingReducer(state, requestFinished());
    expect(state.count).toBe(0);
  });

  it('never goes below zero', () => {
    let state = loadingReducer(undefined, requestFinished());
    expect(state.count).toBe(0);
    state = loadingReducer(state, requestFinished());
    state = loadingReducer(state, requestStarted());
    expect(state.count).toBe(1);
  });
});
