import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { Can } from '../../../src/components/Can';
import { useCan } from '../../../src/components/useCan';
import { createAppStore } from '../../../src/store';
import { loggedOut } from '../../../src/store/authSlice';
import { envelope, mockFetch, requestOf } from '../mockFetch';

let fetchMock: jest.Mock;
beforeEach(() => {
  fetchMock = mockFetch(async () => envelope({ codes: ['manager:view', 'manager:create'], tree: [] }));
});

function Flag({ code }: { code: string | string[] }) {
  return <span data-testid={String(code)}>{useCan(code) ? 'yes' : 'no'}</span>;
}

function renderWith(ui: React.ReactNode, token: string | null = 'tok') {
  const store = createAppStore({ auth: { token, username: token ? 'admin' : null } }, null);
  render(<Provider store={store}>{ui}</Provider>);
  return store;
}

describe('useCan and <Can>', () => {
  it('answers true for a held code and false for a missing one, after one request', async () => {
    renderWith(
      <>
        {Array.from({ length: 30 }, (_, i) => (
          <Can key={i} code="manager:create">
            <button>新增{i}</button>
          </Can>
        ))}
        <Flag code="manager:delete" />
        <Can code="manager:delete" fallback={<span>无权限</span>}>
          <button>删除</button>
        </Can>
      </>,
    );
    expect(await screen.findByRole('button', { name: '新增0' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /新增/ })).toHaveLength(30);
    expect(screen.getByTestId('manager:delete')).toHaveTextContent('no');
    expect(screen.queryByRole('button', { name: '删除' })).not.toBeInTheDocument();
    expect(screen.getByText('无权限')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const request = requestOf(fetchMock);
    expect(new URL(request.url).pathname).toBe('/v1/admin/user/permissions');
    expect(new URL(request.url).search).toBe('');
    expect(request.headers.get('Authorization')).toBe('tok');
  });

  it('accepts a list of codes as "any of"', async () => {
    renderWith(<Flag code={['withdraw:audit', 'manager:view']} />);
    await waitFor(() => expect(screen.getByTestId('withdraw:audit,manager:view')).toHaveTextContent('yes'));
  });

  it('answers false while the codes load and asks nothing when logged out', async () => {
    renderWith(<Flag code="manager:view" />, null);
    expect(screen.getByTestId('manager:view')).toHaveTextContent('no');
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('forgets the codes on logout', async () => {
    const store = renderWith(<Flag code="manager:view" />);
    await waitFor(() => expect(screen.getByTestId('manager:view')).toHaveTextContent('yes'));
    store.dispatch(loggedOut());
    await waitFor(() => expect(screen.getByTestId('manager:view')).toHaveTextContent('no'));
  });
});
