import { fireEvent, screen, waitFor } from '@testing-library/react';
import NotFoundPage from '../../../../src/pages/errors/NotFoundPage';
import { makeStore, renderAt } from '../../shellHarness';

describe('NotFoundPage', () => {
  it('says the page does not exist and goes home on 返回首页', async () => {
    const { router } = renderAt(<NotFoundPage />, '/Layout/errors/404', makeStore());
    expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('抱歉，您访问的页面不存在')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '返回首页' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/layout/welcome'));
  });
});
