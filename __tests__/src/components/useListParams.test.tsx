import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { useListParams, type ListDefaults, type ListParams } from '../../../src/components/useListParams';

type Filters = { username: string; status: string };
const defaults: ListDefaults<Filters> = { filters: { username: '', status: '' }, numeric: ['status'] };

function mount(url: string, opts: ListDefaults<Filters> = defaults) {
  const seen: { current: ListParams<Filters> | null } = { current: null };
  function Probe() {
    seen.current = useListParams<Filters>(opts);
    return null;
  }
  const router = createMemoryRouter([{ path: '/list', element: <Probe /> }], { initialEntries: [url] });
  const view = render(<RouterProvider router={router} />);
  const params = () => seen.current as ListParams<Filters>;
  const url_ = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { router, view, params, url: url_ };
}

describe('useListParams', () => {
  it('starts at page 1 with the default size and no filters on a clean URL', () => {
    const { params } = mount('/list');
    expect(params().queryArgs).toEqual({ page: 1, size: 20 });
    expect(params().filters).toEqual({ username: '', status: '' });
  });

  it('reads filters, page, size and sort from the URL, as after a reload', () => {
    const { params } = mount('/list?username=ab&status=1&page=3&size=50&sort=createdAt&order=asc&tab=x');
    expect(params().queryArgs).toEqual({
      page: 3,
      size: 50,
      sort: 'createdAt',
      order: 'asc',
      username: 'ab',
      status: 1,
    });
    expect(params().draft).toEqual({ username: 'ab', status: '1' });
  });

  it('ignores malformed paging values and caps the size at 100', () => {
    const { params } = mount('/list?page=-2&size=1000');
    expect(params().page).toBe(1);
    expect(params().size).toBe(20);
  });

  it('drops empty and blank filters and non-integer numeric ones from the query args', () => {
    const { params } = mount('/list?username=%20%20&status=abc');
    expect(params().queryArgs).toEqual({ page: 1, size: 20 });
  });

  it('applies the draft on search, goes back to page 1 and writes the URL', () => {
    const { params, url } = mount('/list?page=4');
    act(() => params().setDraft('username', 'alice'));
    expect(params().queryArgs.username).toBeUndefined(); // a draft is not a query yet
    act(() => params().search());
    expect(url()).toBe('/list?username=alice');
    expect(params().queryArgs).toEqual({ page: 1, size: 20, username: 'alice' });
  });

  it('resets page to 1 when filters are set', () => {
    const { params, url } = mount('/list?page=5&size=50');
    act(() => params().setFilters({ status: '2' }));
    expect(url()).toBe('/list?size=50&status=2');
    expect(params().queryArgs).toEqual({ page: 1, size: 50, status: 2 });
  });

  it('reset() clears the filters and the draft but keeps size and sort', () => {
    const { params, url } = mount('/list?username=ab&status=1&page=2&size=10&sort=id&order=desc');
    act(() => params().setDraft('username', 'typed'));
    act(() => params().reset());
    expect(params().filters).toEqual({ username: '', status: '' });
    expect(params().draft).toEqual({ username: '', status: '' });
    expect(url()).toBe('/list?size=10&sort=id&order=desc');
    expect(params().queryArgs).toEqual({ page: 1, size: 10, sort: 'id', order: 'desc' });
  });

  it('turns a page change and a sort change into new query args', () => {
    const { params, url } = mount('/list?username=ab');
    act(() => params().setPage(3));
    expect(params().queryArgs).toEqual({ page: 3, size: 20, username: 'ab' });
    act(() => params().setSort('amount', 'desc'));
    expect(params().queryArgs).toEqual({ page: 1, size: 20, sort: 'amount', order: 'desc', username: 'ab' });
    expect(url()).toBe('/list?username=ab&sort=amount&order=desc');
    act(() => params().setSize(100));
    expect(params().queryArgs).toMatchObject({ page: 1, size: 100, sort: 'amount' });
    act(() => params().setSort(undefined));
    expect(params().queryArgs).toEqual({ page: 1, size: 100, username: 'ab' });
  });

  it('restores the previous list on back and the next one on forward, draft included', async () => {
    const { router, params } = mount('/list');
    act(() => params().setFilters({ username: 'a' }));
    act(() => params().setPage(2));
    expect(params().queryArgs).toEqual({ page: 2, size: 20, username: 'a' });
    await act(() => router.navigate(-1));
    expect(params().queryArgs).toEqual({ page: 1, size: 20, username: 'a' });
    await act(() => router.navigate(-1));
    expect(params().queryArgs).toEqual({ page: 1, size: 20 });
    expect(params().draft.username).toBe('');
    await act(() => router.navigate(1));
    expect(params().draft.username).toBe('a');
  });

  it('survives a reload: a new router on the same URL gives the same query args', () => {
    const first = mount('/list');
    act(() => first.params().setFilters({ username: 'z', status: '0' }));
    act(() => first.params().setPage(7));
    const before = first.params().queryArgs;
    const address = first.url();
    first.view.unmount();
    const second = mount(address);
    expect(second.params().queryArgs).toEqual(before);
    expect(before).toEqual({ page: 7, size: 20, username: 'z', status: 0 });
  });

  it('keeps a default sort out of the URL and a non-empty default filter clearable', () => {
    const opts: ListDefaults<Filters> = { filters: { username: '', status: '0' }, sort: 'createdAt', order: 'desc' };
    const { params, url } = mount('/list', opts);
    expect(params().queryArgs).toEqual({ page: 1, size: 20, sort: 'createdAt', order: 'desc', status: '0' });
    act(() => params().setFilters({ status: '' }));
    expect(url()).toBe('/list?status=');
    expect(params().queryArgs).toEqual({ page: 1, size: 20, sort: 'createdAt', order: 'desc' });
    act(() => params().reset());
    expect(url()).toBe('/list');
    expect(params().queryArgs.status).toBe('0');
  });

  it('namespaces its keys with a prefix so two lists can share a page', () => {
    const { params, url } = mount('/list?log.page=2&page=9', { ...defaults, prefix: 'log.' });
    expect(params().page).toBe(2);
    act(() => params().setFilters({ username: 'q' }));
    expect(url()).toBe('/list?page=9&log.username=q');
  });

  it('carries the cursor of 下一页 / 上一页 in the URL and drops it on any other move', () => {
    const { params, url } = mount('/list?username=ab');
    act(() => params().setPage(2, { after: '1795141800000_181' }));
    expect(url()).toBe('/list?username=ab&page=2&after=1795141800000_181');
    expect(params().queryArgs).toEqual({ page: 2, size: 20, username: 'ab', after: '1795141800000_181' });
    act(() => params().setPage(1, { before: '9_9' }));
    expect(url()).toBe('/list?username=ab'); // page 1 needs no cursor
    act(() => params().setPage(3, { before: '5_5' }));
    expect(params().cursor).toEqual({ before: '5_5' });
    act(() => params().setSize(50));
    expect(url()).toBe('/list?username=ab&size=50');
    act(() => params().setPage(2, { after: '7_7' }));
    act(() => params().search({ username: 'cd' }));
    expect(url()).toBe('/list?username=cd&size=50');
    act(() => params().setPage(2, { after: '7_7' }));
    act(() => params().setSort('createdAt', 'asc'));
    expect(url()).not.toContain('after');
  });

  it('reads a cursor from the URL only when well-formed and past page 1', () => {
    expect(mount('/list?page=4&after=12_34').params().queryArgs).toEqual({ page: 4, size: 20, after: '12_34' });
    expect(mount('/list?page=4&before=12_34').params().queryArgs).toEqual({ page: 4, size: 20, before: '12_34' });
    expect(mount('/list?page=4&after=drop table').params().queryArgs).toEqual({ page: 4, size: 20 });
    expect(mount('/list?after=12_34').params().queryArgs).toEqual({ page: 1, size: 20 });
  });
});
