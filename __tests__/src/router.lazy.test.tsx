/** What each route downloads: the guard decides before the shell or a page is loaded. */
import { fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { createRoutes } from '../../src/router';
import { envelope, mockFetch } from './mockFetch';
import { makeStore } from './shellHarness';

// Each factory runs when its module is first required, i.e. when the app asks for that chunk.
const mockLoaded: string[] = [];
jest.mock('../../src/layout/Layout', () => {
  mockLoaded.push('layout');
  const { createElement } = jest.requireActual('react');
  const { Outlet } = jest.requireActual('react-router-dom');
  return { __esModule: true, default: () => createElement(Outlet) };
});
jest.mock('../../src/pages/welcome/WelcomePage', () => {
  mockLoaded.push('welcome');
  const { createElement } = jest.requireActual('react');
  return { __esModule: true, default: () => createElement('p', null, '欢迎页') };
});
jest.mock('../../src/pages/login/LoginPage', () => {
  mockLoaded.push('login');
  return jest.requireActual('../../src/pages/login/LoginPage');
});

function renderApp(path: string, token: string | null) {
  const store = makeStore({ token });
  const router = createMemoryRouter(createRoutes(store), { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

describe('route loading', () => {
  it('loads only the login page for a visitor without a token, the shell after login', async () => {
    mockFetch(() => envelope({ token: 't', username: 'admin' }));
    const router = renderApp('/layout/welcome', null);
    await screen.findByRole('button', { name: '登录' });
    expect(mockLoaded).toEqual(['login']);
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
    await screen.findByText('欢迎页');
    expect(mockLoaded).toEqual(['login', 'layout', 'welcome']);
    expect(router.state.location.pathname).toBe('/layout/welcome');
  });
});
